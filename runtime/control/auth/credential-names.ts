/**
 * How the admin API's own credentials travel, in one place: the admin checks them here, and the
 * proxy (runtime/chain/proxy/admin-credentials.ts) keeps them from ever reaching an upstream.
 */

/** Hosted mode: writes carry the management token in this header. */
export const MANAGEMENT_TOKEN_HEADER = 'x-mock-management-token';

/** The `iss` claim of the access tokens auth/login issues (sent as `Authorization: Bearer <token>`). */
export const ACCESS_TOKEN_ISSUER = 'mock';
