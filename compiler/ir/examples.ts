import type { IrExample } from './types.js';
import { deref } from './pointer.js';

/** Examples of a media type object in description order: `example`, then `examples`, then the schema's own. */
export function collectExamples(document: unknown, media: Record<string, unknown>): IrExample[] {
  const out: IrExample[] = [];
  if (media.example !== undefined) out.push({ name: 'example', value: media.example });
  if (media.examples && typeof media.examples === 'object' && !Array.isArray(media.examples)) {
    for (const [name, raw] of Object.entries(media.examples as Record<string, unknown>)) {
      const example = deref(document, raw as Record<string, unknown>);
      if (example && typeof example === 'object' && 'value' in example) out.push({ name, value: example.value });
    }
  }
  const schema = deref(document, media.schema as Record<string, unknown> | undefined);
  // 3.1 schemas list `examples` (JSON Schema's keyword) where 3.0 ones had a single `example`
  const own = schema?.example !== undefined ? schema.example : Array.isArray(schema?.examples) ? schema.examples[0] : undefined;
  if (own !== undefined && !out.some((e) => e.name === 'schema')) out.push({ name: 'schema', value: own });
  return out;
}
