export { forward } from './forward.js';
