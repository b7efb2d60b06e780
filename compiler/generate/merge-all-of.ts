/**
 * Build-time `allOf` flattening: one schema whose values satisfy every member, so the emitted
 * generator never has to reconcile members at request time. Property schemas declared by
 * several members become a lazy `allOf` of both, merged when (and if) they are generated.
 */
import type { JsonSchema } from '../ir/types.js';
import { deepEqual, isFalseSchema, isSchemaObject, isUnion, refName, stringList } from './schema.js';

const TIGHTEST_LOW = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const TIGHTEST_HIGH = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
/** Descriptive keywords where the most specific (last) member should win. */
const LAST_WINS = new Set(['title', 'description', 'example', 'examples', 'default']);

/**
 * `schema` with its `allOf` (and a `$ref` that has constraining siblings) merged in.
 * `inside` names definitions already being expanded, to stop cycles.
 */
export function mergeAllOf(
  schema: JsonSchema,
  definitions: Record<string, JsonSchema>,
  inside: readonly string[] = [],
): JsonSchema {
  const members: JsonSchema[] = [];
  collect(schema, definitions, inside, members);
  const merged = members.reduce(mergeTwo, {});
  dropClosedOutProperties(merged, members);
  return merged;
}

function collect(schema: unknown, definitions: Record<string, JsonSchema>, inside: readonly string[], out: JsonSchema[]): void {
  if (!isSchemaObject(schema)) return;
  const { $ref, allOf, ...rest } = schema;
  const name = refName($ref);
  if (name !== undefined && Object.hasOwn(definitions, name) && !inside.includes(name)) {
    collect(definitions[name], definitions, [...inside, name], out);
  }
  if (Array.isArray(allOf)) for (const member of allOf) collect(member, definitions, inside, out);
  if (Object.keys(rest).length > 0) out.push(withoutCyclicVariants(rest, inside));
}

/**
 * A parent that lists its own subtypes (`Pet: oneOf [Cat, Dog]`, `Cat: allOf [Pet, ...]`) would
 * make Cat contain a choice between Cat and Dog: inside such an expansion the choice is made, so
 * a union leading back into it is dropped.
 */
function withoutCyclicVariants(schema: JsonSchema, inside: readonly string[]): JsonSchema {
  if (!isUnion(schema) || inside.length === 0) return schema;
  const out = { ...schema };
  for (const keyword of ['oneOf', 'anyOf']) {
    const variants = out[keyword];
    if (Array.isArray(variants) && variants.some((v) => isSchemaObject(v) && inside.includes(refName(v.$ref) ?? ''))) {
      delete out[keyword];
    }
  }
  return out;
}

function mergeTwo(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (!(key in out)) {
      out[key] = value;
      continue;
    }
    const current = out[key];
    switch (key) {
      case 'type':
        out.type = intersectTypes(current, value);
        break;
      case 'properties':
      case 'patternProperties':
        out[key] = mergeSchemaMaps(current, value);
        break;
      case 'required':
        out.required = [...new Set([...stringList(current), ...stringList(value)])];
        break;
      case 'enum':
        out.enum = intersectValues(current, value);
        break;
      case 'items':
        out.items = both(current, value);
        break;
      case 'additionalProperties':
        out.additionalProperties = isFalseSchema(current) || isFalseSchema(value) ? false : both(current, value);
        break;
      case 'multipleOf':
        out.multipleOf = commonMultiple(current, value);
        break;
      case 'uniqueItems':
      case 'readOnly':
      case 'writeOnly':
        out[key] = current === true || value === true;
        break;
      default:
        if (typeof current === 'number' && typeof value === 'number') {
          if (TIGHTEST_LOW.has(key)) out[key] = Math.max(current, value);
          else if (TIGHTEST_HIGH.has(key)) out[key] = Math.min(current, value);
        }
        if (LAST_WINS.has(key)) out[key] = value;
      // Anything else (format, pattern, discriminator, a second oneOf...): the first member's stands.
    }
  }
  return out;
}

function typeList(type: unknown): string[] {
  return typeof type === 'string' ? [type] : stringList(type);
}

function intersectTypes(a: unknown, b: unknown): unknown {
  const left = typeList(a);
  const right = typeList(b);
  const out = left.filter((t) => right.includes(t));
  // integer is a subset of number.
  if ((left.includes('integer') && right.includes('number')) || (left.includes('number') && right.includes('integer'))) {
    if (!out.includes('integer')) out.push('integer');
  }
  const types = out.filter((t) => t !== 'number' || !out.includes('integer'));
  if (types.length === 0) return a;
  return types.length === 1 ? types[0] : types;
}

function intersectValues(a: unknown, b: unknown): unknown {
  if (!Array.isArray(a) || !Array.isArray(b)) return a;
  const common = a.filter((x) => b.some((y) => deepEqual(x, y)));
  return common.length > 0 ? common : a;
}

/** A schema satisfying both; identical or trivially true ones collapse. */
function both(a: unknown, b: unknown): unknown {
  if (a === true || (isSchemaObject(a) && Object.keys(a).length === 0)) return b;
  if (b === true || (isSchemaObject(b) && Object.keys(b).length === 0) || deepEqual(a, b)) return a;
  return { allOf: [a, b] };
}

function mergeSchemaMaps(a: unknown, b: unknown): JsonSchema {
  const out: JsonSchema = { ...(isSchemaObject(a) ? a : {}) };
  if (isSchemaObject(b)) {
    for (const [key, value] of Object.entries(b)) out[key] = Object.hasOwn(out, key) ? both(out[key], value) : value;
  }
  return out;
}

function commonMultiple(a: unknown, b: unknown): unknown {
  if (typeof a !== 'number' || typeof b !== 'number') return a;
  if (Number.isInteger(a) && Number.isInteger(b)) {
    const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
    return (a / gcd(a, b)) * b;
  }
  return Math.max(a, b);
}

/**
 * A member with `additionalProperties: false` rejects every property it does not declare,
 * whichever member added it: keep optional properties only when every closed member allows them.
 */
function dropClosedOutProperties(merged: JsonSchema, members: JsonSchema[]): void {
  const closed = members.filter((m) => isFalseSchema(m.additionalProperties));
  if (closed.length === 0 || !isSchemaObject(merged.properties)) return;
  const required = new Set(stringList(merged.required));
  const allowedBy = (member: JsonSchema, key: string) =>
    (isSchemaObject(member.properties) && Object.hasOwn(member.properties, key)) ||
    (isSchemaObject(member.patternProperties) &&
      Object.keys(member.patternProperties).some((pattern) => safeTest(pattern, key)));
  const properties: JsonSchema = {};
  for (const [key, value] of Object.entries(merged.properties)) {
    if (required.has(key) || closed.every((member) => allowedBy(member, key))) properties[key] = value;
  }
  merged.properties = properties;
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}
