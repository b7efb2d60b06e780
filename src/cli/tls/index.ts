export { serversTls, type ServersTls } from './servers.js';
export { SELF_SIGNED_DIR } from './self-signed.js';
export { readCaBundle } from './load.js';
