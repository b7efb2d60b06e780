// Types of the two npm libraries used here that ship none.
declare module 'ini' {
  export function parse(text: string): Record<string, unknown>;
}

declare module '@npmcli/git' {
  /** Clones `repo` at `ref` (a tag, branch, commit or `semver:<range>` of version tags) into `target`; resolves with the commit. */
  export function clone(repo: string, ref: string | undefined, target: string, opts?: Record<string, unknown>): Promise<string>;
}
