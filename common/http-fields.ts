/**
 * HTTP header fields as RFC 9110 (5.1, 5.5) allows them. A name is a token; a value holds visible
 * characters, spaces and tabs, never CR, LF, NUL or another control character: those would end the
 * field early and let a value write headers of its own (response splitting). Characters beyond
 * ASCII are sent as their UTF-8 bytes, which the grammar admits as obs-text.
 *
 * Sources check what they are given (a runtime mock, a route of mock.yaml, an override rule, a
 * description's example) and refuse it naming the field; the server adapters' writers clean
 * whatever reaches them anyway, since templates put request data into values.
 */

/** tchar of RFC 9110 5.6.2, by character code. */
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") TCHAR[c.charCodeAt(0)] = 1;

export function isFieldName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c > 127 || TCHAR[c] === 0) return false;
  }
  return true;
}

const isControl = (c: number): boolean => (c < 32 && c !== 9) || c === 127;

/** Hot path: whether a value has a character no field value may carry. */
export function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (isControl(value.charCodeAt(i))) return true;
  return false;
}

const CONTROLS = /[\x00-\x08\x0a-\x1f\x7f]/g;

/** The value without the characters no field value may carry. */
export const withoutControls = (value: string): string => value.replace(CONTROLS, '');

const CONTROL_NAMES: Readonly<Record<number, string>> = { 0: 'NUL', 10: 'LF (a line break)', 13: 'CR (a line break)', 127: 'DEL' };

/**
 * Why `name: value` cannot be a header, in words that fit after the field's name; undefined when it
 * can. `value` may hold template tokens: their output is cleaned when they are expanded.
 */
export function fieldProblem(name: string, value: string): string | undefined {
  if (!isFieldName(name)) return `is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only)`;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // C1 controls go out as UTF-8 obs-text, which a terminal showing the answer (curl -v) may act on
    if (isControl(c) || (c >= 0x80 && c <= 0x9f)) {
      const what = CONTROL_NAMES[c] ?? `the control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
      return `has ${what} in its value at offset ${i}, which a header value cannot carry (it would split the response)`;
    }
  }
  return undefined;
}

/** Names of request fields most clients send, lower case, by length. */
const USUAL_NAMES: ReadonlyArray<readonly string[] | undefined> = (() => {
  const byLength: string[][] = [];
  for (const name of ['host', 'accept', 'cookie', 'origin', 'referer', 'user-agent', 'connection', 'content-type', 'authorization', 'content-length', 'accept-encoding', 'accept-language']) {
    (byLength[name.length] ??= []).push(name);
  }
  return byLength;
})();

/**
 * Hot path: a received field name in lower case, to key the request's headers with. A usual name
 * comes back as a constant, which V8 keys objects with as it is: a name read off the wire is looked
 * up in V8's string table first, on every request (node:http's own header parsing does the same).
 */
export function fieldKey(name: string): string {
  const usual = USUAL_NAMES[name.length];
  if (usual !== undefined) {
    for (let i = 0; i < usual.length; i++) if (sameIgnoringCase(name, usual[i])) return usual[i];
  }
  return name.toLowerCase();
}

/** `lower`: lower-case ASCII, as long as `name`. */
function sameIgnoringCase(name: string, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const c = name.charCodeAt(i);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== lower.charCodeAt(i)) return false;
  }
  return true;
}
