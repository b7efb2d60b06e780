import { ACCESS_TOKEN_ISSUER, BROWSER_TOKEN_HEADER, MANAGEMENT_TOKEN_HEADER } from '../../../common/admin-credentials.js';

const BEARER = /^Bearer\s+([\w-]+)\.([\w-]+)\.([\w-]*)$/i;

/**
 * Whether a request header carries the mock's own admin credentials, which an upstream must
 * never receive: the management token (X-Mock-Management-Token), the admin page's browser token
 * (X-Mock-Admin-Token), and an `Authorization: Bearer` access token of the admin API's login (a
 * JWT whose claims say it is mock's: `iss` mock, an account and a role). The admin API issues no
 * cookies. Any other Authorization (the API's own credentials) goes through.
 */
export function isAdminCredential(name: string, value: string): boolean {
  if (name === MANAGEMENT_TOKEN_HEADER || name === BROWSER_TOKEN_HEADER) return true;
  if (name !== 'authorization') return false;
  const jwt = BEARER.exec(value.trim());
  if (jwt === null) return false;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(jwt[2], 'base64url').toString('utf8'));
  } catch {
    return false;
  }
  const { iss, acc, role } = (claims ?? {}) as Record<string, unknown>;
  return iss === ACCESS_TOKEN_ISSUER && typeof acc === 'string' && typeof role === 'string';
}
