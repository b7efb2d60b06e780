import type { JsonSchema } from '../ir/types.js';

/** Rebuilds a schema tree bottom-up, letting `visit` rewrite each schema node. */
export function mapSchema(schema: JsonSchema, visit: (node: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === 'patternProperties' || key === 'dependentSchemas') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, mapSchema(v, visit)]));
    } else if ((key === 'allOf' || key === 'anyOf' || key === 'oneOf' || key === 'prefixItems' || key === 'items') && Array.isArray(value)) {
      out[key] = value.map((v: JsonSchema) => mapSchema(v, visit));
    } else if (SUBSCHEMA.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = mapSchema(value as JsonSchema, visit);
    } else {
      out[key] = value;
    }
  }
  return visit(out);
}

const SUBSCHEMA = new Set(['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems']);

/** Calls `visit` for every schema node (pre-order). */
export function walkSchema(schema: unknown, visit: (node: JsonSchema) => void): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
  const node = schema as JsonSchema;
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === 'patternProperties' || key === 'dependentSchemas') {
      for (const v of Object.values(value as Record<string, unknown>)) walkSchema(v, visit);
    } else if (Array.isArray(value) && (key === 'allOf' || key === 'anyOf' || key === 'oneOf' || key === 'prefixItems' || key === 'items')) {
      for (const v of value) walkSchema(v, visit);
    } else if (SUBSCHEMA.has(key)) {
      walkSchema(value, visit);
    }
  }
}
