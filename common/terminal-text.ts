/**
 * Text from the network on its way to a terminal. A terminal acts on C0 and C1 control characters
 * instead of printing them: ESC and CSI start sequences that set the window's title, clear or
 * redraw the screen, or write the clipboard (OSC 52); CR and BS overwrite what was printed. So
 * whatever a request could have put into a line is shown with its control characters as visible
 * escapes (`\x1b`), never sent as they are.
 */

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

const escaped = (c: string): string => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** `text` with every control character, line breaks and tabs included, as a visible `\xNN`. */
export const visibleControls = (text: string): string => (CONTROL.test(text) ? text.replace(CONTROLS, escaped) : text);

/** The first control character of `text` as `U+001B`, or undefined when it has none. */
export function firstControl(text: string): string | undefined {
  const found = CONTROL.exec(text);
  return found === null ? undefined : `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * A pino JSON line as a terminal may show it, still JSON: pino writes C0 controls as `\u001b`
 * escapes (which a pretty-printer turns back into the characters) and C1 controls as they are.
 * Each becomes the escaped text `\\x1b`; `\n` and `\t` escapes stay (messages and stacks span
 * lines). One left-to-right pass over escape sequences, so `\\u001b` (an escaped backslash, then
 * text) is left alone and the work is linear.
 */
export function jsonLineForTerminal(line: string): string {
  return line.replace(JSON_CONTROLS, (match: string, hex: string | undefined) => {
    if (match.length === 1) return `\\\\x${match.charCodeAt(0).toString(16)}`;
    if (hex !== undefined) {
      const code = parseInt(hex, 16);
      return code < 0x20 || (code >= 0x7f && code <= 0x9f) ? `\\\\x${code.toString(16).padStart(2, '0')}` : match;
    }
    const kind = match[1];
    return kind === 'r' ? '\\\\x0d' : kind === 'b' ? '\\\\x08' : kind === 'f' ? '\\\\x0c' : match;
  });
}

/** Every JSON escape sequence (`\\`, `\"`, `\n`, `\u001b` …) in order, and raw DEL and C1 characters. */
const JSON_CONTROLS = /\\(?:u([0-9a-fA-F]{4})|[^u])|[\u007f-\u009f]/g;
