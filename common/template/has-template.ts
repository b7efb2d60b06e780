import { TemplateSyntaxError } from './errors.js';
import { parseTag } from './parser.js';
import { tokenize } from './tokenizer.js';

/**
 * true when `text` contains at least one recognised token. A recognised but malformed
 * tag counts, so that parsing gets to report it instead of it being served as-is.
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
