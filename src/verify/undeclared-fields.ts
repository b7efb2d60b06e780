import type { JsonSchema } from '../../compiler/index.js';
import type { SchemaView } from '../conformance/schema-view.js';

const MAX_DEPTH = 32;

/**
 * Properties of a body that its schema does not declare, as paths (`$.owner.nickname`,
 * `$.items[].debug`), even where additionalProperties lets them through: what a client written
 * against the description does not know it gets. Objects whose schema declares no properties
 * (maps, free-form objects) or matches keys by patternProperties are taken as they are.
 */
export function undeclaredFields(view: SchemaView, schema: JsonSchema | undefined, value: unknown): string[] {
  const found = new Set<string>();
  walk(view, schema, value, '$', found, 0);
  return [...found];
}

function walk(view: SchemaView, schema: JsonSchema | undefined, value: unknown, path: string, found: Set<string>, depth: number): void {
  if (schema === undefined || depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const items = view.keyword(schema, 'items') as JsonSchema | undefined;
    for (const item of value) walk(view, items, item, `${path}[]`, found, depth + 1);
    return;
  }
  const shape = view.shape(schema);
  if (shape === undefined || Object.keys(shape.properties).length === 0 || view.keyword(schema, 'patternProperties') !== undefined) return;
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    const declared = Object.hasOwn(shape.properties, name) ? shape.properties[name] : undefined;
    if (declared === undefined) found.add(`${path}.${name}`);
    else walk(view, declared, field, `${path}.${name}`, found, depth + 1);
  }
}
