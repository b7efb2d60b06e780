export { buildTree, type RouteEntry } from './tree.js';
export { emitRouter } from './emit-router.js';
export { parseTemplate, paramNames } from './segments.js';
