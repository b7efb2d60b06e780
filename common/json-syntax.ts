/**
 * What JSON.parse found wrong, without the input V8 quotes (`Unexpected token 'r', "root:x:0:0"...
 * is not valid JSON`): an error about a file must never show what the file holds, since mock.yaml
 * may name one it should not have. Position-only messages (`Expected property name or '}' in
 * JSON at position 1`) are kept as they are.
 */
export function jsonSyntaxError(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (/^Unexpected token/.test(message)) {
    const position = /at position \d+/.exec(message)?.[0];
    return `unexpected character${position === undefined ? '' : ` ${position}`}`;
  }
  return /["']/.test(message) && !/^Expected /.test(message) ? 'not JSON text' : message;
}
