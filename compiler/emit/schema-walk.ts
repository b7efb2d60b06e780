import type { JsonSchema } from '../ir/types.js';

/** Rebuilds a schema tree bottom-up, letting `visit` rewrite each schema node. */
export function mapSchema(schema: JsonSchema, visit: (node: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (MAPS.has(key) && value && typeof value === 'object') {
      // `dependencies` also maps names to property lists, which are not schemas
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, isSchema(v) ? mapSchema(v, visit) : v]));
    } else if (LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((v: JsonSchema) => mapSchema(v, visit));
    } else if (SUBSCHEMA.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = mapSchema(value as JsonSchema, visit);
    } else {
      out[key] = value;
    }
  }
  return visit(out);
}

const MAPS = new Set(['properties', 'patternProperties', 'dependencies']);
const LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'items']);
const SUBSCHEMA = new Set(['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems']);

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls `visit` for every schema node (pre-order). */
export function walkSchema(schema: unknown, visit: (node: JsonSchema) => void): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
  const node = schema as JsonSchema;
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (MAPS.has(key) && value && typeof value === 'object') {
      for (const v of Object.values(value as Record<string, unknown>)) walkSchema(v, visit);
    } else if (LISTS.has(key) && Array.isArray(value)) {
      for (const v of value) walkSchema(v, visit);
    } else if (SUBSCHEMA.has(key)) {
      walkSchema(value, visit);
    }
  }
}
