import type { IrSequence } from './types.js';
import { framingOf } from '../../common/sequence-items.js';
import type { SchemaRegistry } from './normalize-schema.js';
import { deref } from './pointer.js';

type Obj = Record<string, unknown>;

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
