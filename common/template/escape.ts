import type { TemplateEscape } from './ast.js';

/**
 * With escape 'json' the compiled text is serialised JSON, so a token's inside is still
 * JSON-string-escaped (`\"cat\"`). Returns the token as the author wrote it, or undefined
 * when the span is not the content of one JSON string (e.g. `{{` and `}}` in different
 * strings), which means it is not a token at all.
 */
export function unescapeTagBody(body: string, escape: TemplateEscape): string | undefined {
  if (escape === 'none') return body;
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return undefined;
  }
}

/** Runtime helper that turns an inserted value into text fit for the target. */
export function insertHelper(escape: TemplateEscape): 'json' | 'str' {
  return escape === 'json' ? 'json' : 'str';
}
