export { registerSchemas, type AjvSchemas } from './ajv-schemas.js';
export { emitValidators } from './validators.js';
export { emitResponders, type ResponderWarnings } from './responders.js';
export { emitRoutes } from './routes.js';
export { emitTypes } from './types.js';
export { emitIndex } from './index-module.js';
export { PACKAGE_JSON } from './package-json.js';
export { transpile } from './transpile.js';
export { bodyFormat, type BodyFormat } from './media.js';
