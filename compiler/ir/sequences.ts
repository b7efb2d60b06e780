import type { IrSequence, SequenceFraming } from './types.js';
import type { SchemaRegistry } from './normalize-schema.js';
import { deref } from './pointer.js';

type Obj = Record<string, unknown>;

/** The sequential media types (OpenAPI 3.2, "Sequential Media Types") and how their items are framed. */
const FRAMINGS: Record<string, SequenceFraming> = {
  'text/event-stream': 'sse',
  'application/jsonl': 'jsonl',
  'application/x-ndjson': 'jsonl',
  'application/x-jsonlines': 'jsonl',
  'application/json-seq': 'json-seq',
  'multipart/mixed': 'multipart',
};

export const framingOf = (mediaType: string): SequenceFraming | undefined => FRAMINGS[mediaType.split(';')[0].trim().toLowerCase()];

/**
 * The items of a sequential media type: `itemSchema` where the description gives one (3.2); else,
 * for 3.0/3.1 descriptions that document such a type with an ordinary `schema`, its `items` when it
 * is an array (the stream is the array's members, one by one) and the schema itself otherwise (one
 * item: for SSE the event object, or its data). undefined for any other media type.
 */
export function lowerSequence(document: Obj, registry: SchemaRegistry, mediaType: string, media: Obj): IrSequence | undefined {
  const framing = framingOf(mediaType);
  if (framing === undefined) return undefined;
  if (media.itemSchema !== undefined) return { framing, itemSchema: registry.normalize(media.itemSchema), from: 'itemSchema' };
  if (media.schema === undefined) return { framing, from: 'schema' };
  const schema = deref(document, media.schema as Obj);
  if (schema && typeof schema === 'object' && (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) && schema.items && typeof schema.items === 'object') {
    return { framing, itemSchema: registry.normalize(schema.items), from: 'schema.items' };
  }
  return { framing, itemSchema: registry.normalize(media.schema), from: 'schema' };
}
