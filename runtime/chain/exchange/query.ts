import { parseCookie } from 'cookie';

export { decode, parseQuery } from '../../../common/query-string.js';

/**
 * Cookie header into name -> value, by the cookie package (RFC 6265): values percent-decoded but
 * `+` kept (a cookie is no form field), the first of a repeated name kept (the one of the longest
 * path), a prototype-free object.
 */
export function parseCookies(header: string | undefined): Record<string, string> {
  // parsing gives every name a value (the type's undefined is for stringifying)
  return header ? (parseCookie(header) as Record<string, string>) : {};
}
