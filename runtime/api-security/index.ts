export { compileSecurity, type SecurityCheck, type SecurityFailure } from './requirements.js';
export { isJwt } from './schemes.js';
