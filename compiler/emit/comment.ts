/**
 * A comment around text from the description or mock.yaml (paths, operation keys). The text must
 * not end the comment: a path such as `/x*\/code();/*` would otherwise become code in the build
 * the server imports.
 */
export function comment(text: string, doc = false): string {
  return `/*${doc ? '*' : ''} ${text.replaceAll('*/', '*\\/')} */`;
}
