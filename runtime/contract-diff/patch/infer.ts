import { isObject, type Json } from './document.js';

/** The description's dialect, which decides how a null or a second type is written. */
export type Dialect = '2.0' | '3.0' | '3.1';

export function dialectOf(document: Json): Dialect {
  if (typeof document.swagger === 'string') return '2.0';
  return typeof document.openapi === 'string' && document.openapi.startsWith('3.0') ? '3.0' : '3.1';
}

/** A value's JSON Schema type: integers apart from other numbers. */
export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** The least schema that describes what was observed: types, the properties seen, the items of every element. */
export function inferSchema(value: unknown, dialect: Dialect): Json {
  const type = typeOf(value);
  if (type === 'null') return dialect === '3.1' ? { type: 'null' } : { nullable: true };
  if (type === 'array') {
    const items = (value as unknown[]).reduce<Json | undefined>((merged, item) => mergeInferred(merged, inferSchema(item, dialect)), undefined);
    return items === undefined ? { type: 'array', items: {} } : { type: 'array', items };
  }
  if (type === 'object') {
    const properties: Json = {};
    for (const [name, item] of Object.entries(value as Json)) properties[name] = inferSchema(item, dialect);
    return { type: 'object', properties };
  }
  return { type };
}

/** Two inferred schemas as one: properties merged, differing types as a list (written by the dialect later). */
function mergeInferred(a: Json | undefined, b: Json): Json {
  if (a === undefined) return b;
  if (a.type === 'object' && b.type === 'object' && isObject(a.properties) && isObject(b.properties)) {
    const properties: Json = { ...a.properties };
    for (const [name, schema] of Object.entries(b.properties)) properties[name] = isObject(properties[name]) ? mergeInferred(properties[name] as Json, schema as Json) : schema;
    return { type: 'object', properties };
  }
  if (a.type === b.type) return a;
  if (a.type === 'integer' && b.type === 'number') return b;
  if (a.type === 'number' && b.type === 'integer') return a;
  return { anyOf: [a, b] };
}
