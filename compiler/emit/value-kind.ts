import type { ValueKind } from '../../common/contract/index.js';
import type { JsonSchema } from '../ir/types.js';

/** Follows $refs and allOf to the schema that decides the kind. */
export function resolveSchema(schema: JsonSchema | undefined, definitions: Record<string, JsonSchema>, depth = 0): JsonSchema {
  if (!schema || depth > 20) return {};
  if (typeof schema.$ref === 'string') return resolveSchema(definitions[schema.$ref.slice('#/definitions/'.length)], definitions, depth + 1);
  if (!schema.type && Array.isArray(schema.allOf)) {
    for (const part of schema.allOf as JsonSchema[]) {
      const resolved = resolveSchema(part, definitions, depth + 1);
      if (resolved.type || resolved.properties) return { ...resolved, ...withoutAllOf(schema) };
    }
  }
  return schema;
}

const withoutAllOf = (schema: JsonSchema): JsonSchema => {
  const { allOf: _allOf, ...rest } = schema;
  return rest;
};

export function valueKind(schema: JsonSchema | undefined, definitions: Record<string, JsonSchema>): ValueKind {
  const resolved = resolveSchema(schema, definitions);
  const types = (Array.isArray(resolved.type) ? resolved.type : [resolved.type]).filter((t) => t && t !== 'null');
  if (types.length === 1) return types[0] as ValueKind;
  if (types.length === 0 && resolved.properties) return 'object';
  if (types.length === 0 && resolved.items) return 'array';
  if (types.length === 0 && Array.isArray(resolved.enum) && resolved.enum.every((v) => typeof v === 'string')) return 'string';
  // anyOf/oneOf whose non-null branches agree on one kind (the 3.1 nullable idiom among them)
  const branches = ((resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined)?.filter((b) => resolveSchema(b, definitions).type !== 'null');
  if (types.length === 0 && branches && branches.length > 0) {
    const kinds = new Set(branches.map((b) => valueKind(b, definitions)));
    if (kinds.size === 1) return [...kinds][0];
  }
  return 'any';
}

/** Kind of the elements of an array schema. */
export function itemKind(schema: JsonSchema | undefined, definitions: Record<string, JsonSchema>): ValueKind {
  const items = resolveSchema(schema, definitions).items;
  return items && typeof items === 'object' && !Array.isArray(items) ? valueKind(items as JsonSchema, definitions) : 'string';
}
