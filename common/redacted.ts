/** What credentials' values are shown as in logs, the log stream, the admin API and error messages. */
export const REDACTED = '[redacted]';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * A URL as it may be displayed: the password of its userinfo shown as `[redacted]`
 * (`https://user:[redacted]@api.example.com/v1`), or the whole userinfo when it has no password,
 * since a lone user name is often a token (`https://<token>@github.com`). Anything else is
 * returned as it is. The userinfo ends at the authority's last `@`, as the URL standard reads it;
 * in a string that is not a valid URL (which error messages echo) at the last `@` before a query
 * or fragment, so an unencoded `/` in a password does not show the rest of it.
 */
export function redactUrlCredentials(value: string): string {
  const scheme = SCHEME.exec(value);
  if (scheme === null) return value;
  const rest = value.slice(scheme[0].length);
  const end = rest.search(URL.canParse(value) ? /[/?#\\]|$/ : /[?#]|$/);
  const at = rest.lastIndexOf('@', end - 1);
  if (at < 0) return value;
  const colon = rest.indexOf(':');
  const userinfo = colon >= 0 && colon < at ? `${rest.slice(0, colon)}:${REDACTED}` : REDACTED;
  return `${scheme[0]}${userinfo}${rest.slice(at)}`;
}

/** Text (an error message, a library's) with the password of every URL in it as [redacted]. */
export function redactUrlsInText(text: string): string {
  return text.replace(/[^\s"'`<>()[\]{}]+/g, redactUrlCredentials);
}
