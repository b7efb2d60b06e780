import type { IrContent, JsonSchema } from '../../compiler/index.js';

/** Items a generated sequential request body holds. */
const ITEMS = 3;

/**
 * A valid request body of a sequential media type (JSON Lines, json-seq): a few items made by
 * `value` from the item schema, framed as the type says; undefined for other media types (SSE and
 * multipart/mixed request bodies are sent as any other body). `valid` rejects an item to make again.
 */
export function sequenceBody(content: IrContent, value: (schema: JsonSchema) => unknown, valid: (item: unknown) => boolean = () => true): string | undefined {
  const sequence = content.sequence;
  if (sequence === undefined || (sequence.framing !== 'jsonl' && sequence.framing !== 'json-seq')) return undefined;
  const items: string[] = [];
  for (let i = 0; i < ITEMS; i++) {
    let item: unknown = i;
    for (let attempt = 0; attempt < 6 && sequence.itemSchema !== undefined; attempt++) {
      item = value(sequence.itemSchema);
      if (valid(item)) break;
    }
    items.push(`${sequence.framing === 'json-seq' ? '\x1e' : ''}${JSON.stringify(item) ?? 'null'}\n`);
  }
  return items.join('');
}
