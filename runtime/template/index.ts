export type { Render, TemplateContext, TemplateRuntime } from '../../common/contract/index.js';
export { createFaker } from '../../common/template/index.js';
export { templateRenderer } from './interpret.js';
export { createTemplateRuntime, type TemplatePlugins, type TemplateRuntimeOptions } from './runtime.js';
