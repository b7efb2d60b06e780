export type { TemplateContext } from './accessors.js';
export { createFaker } from '../../common/template/index.js';
export { templateRenderer, type RenderTemplate } from './interpret.js';
export { createTemplateRuntime, type TemplateRuntime, type TemplateRuntimeOptions } from './runtime.js';
