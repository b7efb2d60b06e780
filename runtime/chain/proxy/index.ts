export { forward } from './forward.js';
export { checkUpstreamUrl } from './upstream.js';
