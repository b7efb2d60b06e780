export { compileSecurity, type ContextOf, type SecurityCheck, type SecurityFailure } from './requirements.js';
export type { ApiAuthOptions, JwtPins, SchemePins, TokenEndpointOptions } from './options.js';
export { pinProblems } from './pin-check.js';
export { isJwt } from './schemes.js';
export { tokenAnswer } from './token-endpoint.js';
export { TokenIssuer } from './token-issuer.js';
