import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * The per-process token browser writes to the admin API need, on top of the Origin check. Only
 * the admin page carries it (a `<meta name="mock-admin-token">`), and a page can read the admin
 * page only from the admin's own origin or one admin.cors.allowed_origins names exactly; so a
 * page planted anywhere else on this machine (another program's port, a mock of another
 * process) cannot write even when the Origin patterns allow it.
 */
export class BrowserToken {
  readonly value = randomBytes(32).toString('base64url');
  // compared as digests: timingSafeEqual needs equal lengths, and the given value's length must not matter
  private readonly digest = sha256(this.value);

  matches(given: string | undefined): boolean {
    return given !== undefined && timingSafeEqual(sha256(given), this.digest);
  }
}

/**
 * A request a browser sent: browsers send `Origin` on every write (same-origin ones included) and
 * `Sec-Fetch-Site`/`Sec-Fetch-Dest` on every request to loopback and HTTPS addresses. `Sec-Fetch-Mode` alone is
 * no sign: Node's fetch sends `sec-fetch-mode: cors` from scripts too.
 */
export function fromBrowser(headers: Readonly<Record<string, string>>): boolean {
  return headers.origin !== undefined || headers['sec-fetch-site'] !== undefined || headers['sec-fetch-dest'] !== undefined;
}
