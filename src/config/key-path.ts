/** A location in the configuration tree: object keys and array indexes. */
export type KeyPath = ReadonlyArray<string | number>;

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Writes a key path the way users read it: `server.http_port`, `specs[0].path`, `validation.overrides["GET /health"]`. */
export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** `base` followed by more of the path: `MOCK_HTTP_OVERRIDES` + `[0].name`. */
export function appendKeyPath(base: string, rest: KeyPath): string {
  if (rest.length === 0) return base;
  const tail = formatKeyPath(rest);
  return typeof rest[0] === 'number' || tail.startsWith('[') ? `${base}${tail}` : `${base}.${tail}`;
}

/** Splits the dotted keys used in the env and flag tables (`server.http_port`). */
export const splitKey = (key: string): string[] => key.split('.');
