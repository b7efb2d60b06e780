/**
 * Template tokens ({{uuid}}, {{request.path.id}}, {{#if …}}) parsed into an AST: the compiler emits
 * code from it for generated responders, the runtime interprets it for what arrives at run time
 * (mocks created over the admin API), so text from the API is never turned into code.
 */
export type { Condition, Operand, RequestSource, TemplateEscape, TemplateNode, ValueExpr } from './ast.js';
export { TemplateSyntaxError } from './errors.js';
export { insertHelper } from './escape.js';
export { createFaker, type FakerModules } from './faker.js';
export { hasTemplate } from './has-template.js';
export { parseTemplate } from './parser.js';
