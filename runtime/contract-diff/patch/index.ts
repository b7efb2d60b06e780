export { PatchBuilder, type CorrectionPatch } from './generate.js';
export type { PatchOp } from './document.js';
