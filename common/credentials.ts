/**
 * Which names carry credentials, whatever the API: one definition for the request log's redaction
 * (runtime) and for fixtures made outside the server (HAR import), so both hide the same values.
 */

/** Headers that carry credentials: HTTP's own, and the ecosystem's that CREDENTIAL_NAME does not catch. */
export const CREDENTIAL_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'ocp-apim-subscription-key', 'x-functions-key', 'x-sentry-auth'];

/**
 * Header names that say they carry a credential: a `-` or `_` separated word token, secret,
 * password, passwd, apikey, credential(s) or authorization, or the words api key. So X-Auth-Token,
 * X-Amz-Security-Token, X-Api-Key, X-Goog-Api-Key, Private-Token, X-Vault-Token, X-CSRF-Token,
 * X-Amzn-Remapped-Authorization, X-Mock-Management-Token and X-Mock-Admin-Token, whatever the API.
 * Tested against lower-case names.
 */
export const CREDENTIAL_NAME = /(?:^|[-_])(?:token|secret|password|passwd|apikey|credentials?|authorization|api[-_]key)(?:[-_]|$)/;

/** A header (any case) whose value is a credential by its name alone. */
export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.includes(lower) || CREDENTIAL_NAME.test(lower);
}
