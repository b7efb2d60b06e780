export { forward, type ProxiedResponse } from './forward.js';
