export { parsePatch, type PatchOperation } from './operations.js';
export { patchDescription, type PatchedDescription } from './apply.js';
export { generateCorrection, type GenerateOptions } from './generate.js';
