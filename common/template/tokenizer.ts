import type { TemplateEscape } from './ast.js';
import { unescapeTagBody } from './escape.js';

export type Segment =
  | { kind: 'text'; text: string }
  /** `source` is the tag as written (`{{...}}`), `body` its trimmed, unescaped inside. */
  | { kind: 'tag'; source: string; body: string; offset: number };

/** Splits text into literal runs and `{{...}}` tags. */
export function tokenize(text: string, escape: TemplateEscape): Segment[] {
  const segments: Segment[] = [];
  let pos = 0;
  let textStart = 0;
  for (;;) {
    const open = text.indexOf('{{', pos);
    if (open === -1) break;
    const close = text.indexOf('}}', open + 2);
    if (close === -1) break;
    // The innermost `{{` wins, so a stray `{{` earlier on does not swallow a real tag.
    const start = text.lastIndexOf('{{', close - 2);
    const body = unescapeTagBody(text.slice(start + 2, close), escape);
    pos = close + 2;
    if (body === undefined) continue;
    if (start > textStart) segments.push({ kind: 'text', text: text.slice(textStart, start) });
    segments.push({ kind: 'tag', source: text.slice(start, pos), body: body.trim(), offset: start });
    textStart = pos;
  }
  if (textStart < text.length) segments.push({ kind: 'text', text: text.slice(textStart) });
  return segments;
}
