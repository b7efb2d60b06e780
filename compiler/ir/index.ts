export type * from './types.js';
export { buildIr, type IrInput } from './build-ir.js';
export { resolvePointer } from './pointer.js';
export { DATA_SOURCE, dataSourceOf, type DataSource } from './data-source.js';
