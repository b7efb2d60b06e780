import { decode } from '../../../common/query-string.js';

export { decode, parseQuery } from '../../../common/query-string.js';

/** Cookie header into name -> value. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = decode(part.slice(eq + 1).trim());
  }
  return out;
}
