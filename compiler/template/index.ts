import type { TemplateEscape } from './ast.js';
import { emitTemplate } from './emitter.js';
import { TemplateSyntaxError } from './errors.js';
import { parseTag, parseTemplate } from './parser.js';
import { tokenize } from './tokenizer.js';

export type { TemplateEscape } from './ast.js';
export { TemplateSyntaxError } from './errors.js';

/**
 * true when `text` contains at least one recognised token. A recognised but malformed
 * tag counts, so that compileTemplate gets to report it instead of it being served as-is.
 */
export function hasTemplate(text: string): boolean {
  if (!text.includes('{{')) return false;
  return tokenize(text, 'none').some((segment) => {
    if (segment.kind === 'text') return false;
    try {
      return parseTag(segment) !== undefined;
    } catch (error) {
      if (error instanceof TemplateSyntaxError) return true;
      throw error;
    }
  });
}

/**
 * JS source of an arrow function `(t, c) => string` rendering `text` against a
 * TemplateRuntime `t` and TemplateContext `c` (runtime/template). With escape 'json',
 * `text` is serialised JSON and inserted values are escaped as JSON string content.
 * Throws TemplateSyntaxError on malformed blocks and tokens.
 */
export function compileTemplate(text: string, escape: TemplateEscape): string {
  return emitTemplate(parseTemplate(text, escape), escape);
}
