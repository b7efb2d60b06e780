const ESCAPE = /%([0-9A-Fa-f]{2})/g;

/** One round of percent-decoding, byte by byte (what matters here is ASCII); malformed escapes stay. */
const decodeOnce = (text: string): string => text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * Whether a request path has a `.` or `..` segment that an upstream, or the URL parser joining it
 * to the upstream's path, would resolve: raw or percent-encoded (`%2e%2e`, `.%2E`, once or twice),
 * between slashes or backslashes (also encoded, `%2f`, `%5c`), and with a `;parameter` after it
 * (`..;x`, which servlet containers strip).
 */
export function hasDotSegment(path: string): boolean {
  let form = path;
  for (let round = 0; ; round++) {
    for (const segment of form.split(/[\\/]/)) {
      const name = segment.split(';', 1)[0];
      if (name === '.' || name === '..') return true;
    }
    if (round === 2 || !form.includes('%')) return false;
    const next = decodeOnce(form);
    if (next === form) return false;
    form = next;
  }
}
