import type { ValueKind, ValueShape } from '../../common/contract/index.js';
import type { JsonSchema } from '../ir/types.js';
import { resolveSchema, valueKind } from './value-kind.js';

const SCALARS = new Set<string>(['string', 'integer', 'number', 'boolean', 'null']);
/** Deep enough for real query and form structures (Stripe nests four levels); recursive schemas stop here. */
const MAX_DEPTH = 6;

/** Follows $refs only (not allOf: every member contributes properties). */
function deref(schema: JsonSchema | undefined, definitions: Record<string, JsonSchema>): JsonSchema {
  let node = schema ?? {};
  for (let hops = 0; typeof node.$ref === 'string' && hops < 20; hops++) node = definitions[node.$ref.slice('#/definitions/'.length)] ?? {};
  return node;
}

function objectShape(schema: JsonSchema, definitions: Record<string, JsonSchema>, depth: number): ValueShape {
  const properties: Record<string, ValueShape> = {};
  let rest: ValueShape | undefined;
  const visit = (node: JsonSchema, level: number): void => {
    if (level > 10) return;
    const resolved = deref(node, definitions);
    for (const part of (resolved.allOf as JsonSchema[] | undefined) ?? []) visit(part, level + 1);
    for (const [name, prop] of Object.entries((resolved.properties ?? {}) as Record<string, JsonSchema>)) properties[name] = valueShape(prop, definitions, depth + 1);
    const additional = resolved.additionalProperties;
    if (additional !== undefined && typeof additional === 'object') rest = valueShape(additional as JsonSchema, definitions, depth + 1);
  };
  visit(schema, 0);
  const sorted = Object.fromEntries(Object.keys(properties).sort().map((k) => [k, properties[k]]));
  return rest === undefined ? { object: sorted } : { object: sorted, rest };
}

/**
 * The shape request text is coerced into for `schema`. Scalars and arrays of scalars are their
 * kinds; objects list their properties (allOf members merged); anyOf/oneOf and type lists keep
 * their distinct alternatives in order, so `created: anyOf [object, integer]` takes
 * `created[gt]=1` as an object and `created=1` as an integer.
 */
export function valueShape(schema: JsonSchema | undefined, definitions: Record<string, JsonSchema>, depth = 0): ValueShape {
  if (depth > MAX_DEPTH) return 'any';
  const node = deref(schema, definitions);
  const resolved = resolveSchema(node, definitions);
  const types = (Array.isArray(resolved.type) ? resolved.type : [resolved.type]).filter((t): t is string => typeof t === 'string' && t !== 'null');
  if (types.length > 1) return union(types.map((t) => valueShape({ ...resolved, type: t }, definitions, depth)));
  const kind = valueKind(node, definitions);
  if (kind === 'object' || (types.length === 0 && Array.isArray(resolved.allOf))) return objectShape(node, definitions, depth);
  if (kind === 'array') {
    const items = resolved.items;
    return { array: items !== null && typeof items === 'object' && !Array.isArray(items) ? valueShape(items as JsonSchema, definitions, depth + 1) : 'string' };
  }
  if (kind !== 'any') return kind;
  const branches = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    return union(branches.filter((b) => resolveSchema(deref(b, definitions), definitions).type !== 'null').map((b) => valueShape(b, definitions, depth + 1)));
  }
  return 'any';
}

function union(shapes: ValueShape[]): ValueShape {
  const distinct: ValueShape[] = [];
  for (const shape of shapes) if (!distinct.some((d) => JSON.stringify(d) === JSON.stringify(shape))) distinct.push(shape);
  if (distinct.length === 1) return distinct[0];
  return distinct.length === 0 ? 'any' : { oneOf: distinct };
}

/** Whether coercing by kind alone (scalars, arrays of scalars) is all a parameter needs. */
export function isPlain(shape: ValueShape): shape is ValueKind | { array: ValueKind } {
  if (typeof shape === 'string') return shape !== 'object';
  return 'array' in shape && typeof shape.array === 'string' && SCALARS.has(shape.array);
}
