export type { TemplateContext } from './accessors.js';
export { createFaker } from './faker.js';
export { loadTemplate, type RenderTemplate } from './load.js';
export { createTemplateRuntime, type TemplateRuntime, type TemplateRuntimeOptions } from './runtime.js';
