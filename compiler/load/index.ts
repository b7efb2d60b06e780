export { readDescription, type RawDescription } from './read-description.js';
export { isUrl } from '../fingerprint.js';
export { NON_EMPTY_FIELD, toOpenApi3, type Dialect, type OpenApi3 } from './to-openapi3.js';
export { checkStructure, type StructureProblem } from './check-structure.js';
export { selfUri } from './self-uri.js';
