import { isUtf8 } from 'node:buffer';
import type { SequenceFraming, Validate } from '../../../common/contract/index.js';
import type { ValidationIssue } from '../../chain/exchange/index.js';
import type { ParsedBody } from './request-body.js';
import { validateBody } from './validation-errors.js';

/**
 * A sequential request body (JSON Lines, json-seq) as its items, each JSON: the body's value is
 * the list of them. JSON Lines skips blank lines (a trailing newline, CRLF endings); json-seq
 * splits at RS (RFC 7464). Other framings (SSE, multipart/mixed) are not read as items.
 */
export function parseItems(framing: SequenceFraming, raw: Buffer): ParsedBody {
  if (framing !== 'jsonl' && framing !== 'json-seq') return { ok: true, value: undefined };
  if (!isUtf8(raw)) return { ok: false, error: 'malformed body: not valid UTF-8' };
  const texts = raw.toString('utf8').split(framing === 'jsonl' ? '\n' : '\x1e');
  const items: unknown[] = [];
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i].trim();
    if (text === '') continue;
    try {
      items.push(JSON.parse(text));
    } catch (e) {
      return {
        ok: false,
        error: `malformed ${framing === 'jsonl' ? 'JSON Lines' : 'json-seq'} body: item ${items.length + 1}${framing === 'jsonl' ? ` (line ${i + 1})` : ''}: ${(e as Error).message}`,
      };
    }
  }
  return { ok: true, value: items };
}

/** Every item against the item schema; an issue names its item (`/2/level`: the third item's level). */
export function validateItems(validate: Validate, items: unknown[], issues: ValidationIssue[]): void {
  for (let i = 0; i < items.length; i++) {
    const found: ValidationIssue[] = [];
    validateBody(validate, items[i], found, `item ${i + 1}`);
    for (const issue of found) issues.push({ ...issue, name: `/${i}${issue.name}`, message: `item ${i + 1}: ${issue.message}` });
  }
}
