/**
 * How the admin API's own credentials travel, in one place: the admin (runtime/control) checks
 * them, and the proxy (runtime/chain/proxy/admin-credentials.ts) keeps them from ever reaching an
 * upstream.
 */

/** The admin page's per-process browser token travels in this header (runtime/control/admin/browser-token.ts). */
export const BROWSER_TOKEN_HEADER = 'x-mock-admin-token';

/** Hosted mode: writes carry the management token in this header. */
export const MANAGEMENT_TOKEN_HEADER = 'x-mock-management-token';

/** The `iss` claim of the access tokens auth/login issues (sent as `Authorization: Bearer <token>`). */
export const ACCESS_TOKEN_ISSUER = 'mock';
