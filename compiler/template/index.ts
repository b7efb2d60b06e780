import { parseTemplate, type TemplateEscape } from '../../common/template/index.js';
import { emitTemplate } from './emitter.js';

export { TemplateSyntaxError, hasTemplate, type TemplateEscape } from '../../common/template/index.js';

/**
 * JS source of an arrow function `(t, c) => string` rendering `text` against a
 * TemplateRuntime `t` and TemplateContext `c` (runtime/template). With escape 'json',
 * `text` is serialised JSON and inserted values are escaped as JSON string content.
 * Throws TemplateSyntaxError on malformed blocks and tokens.
 */
export function compileTemplate(text: string, escape: TemplateEscape): string {
  return emitTemplate(parseTemplate(text, escape), escape);
}
