/**
 * Build-time `allOf` flattening: one schema whose values satisfy every member, so the emitted
 * generator never has to reconcile members at request time. Property schemas declared by
 * several members become a lazy `allOf` of both, merged when (and if) they are generated.
 * `if`/`then` and dependent schemas are members too: generated values satisfy them outright.
 */
import type { JsonSchema } from '../ir/types.js';
import { commonMultiple } from './numbers.js';
import {
  deepEqual, isFalseSchema, isPureRef, isSchemaObject, isUnion, patternAccepts, refName, stringList,
} from './schema.js';

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

/** Whether mergeAllOf has something to fold: allOf, a `$ref` with constraints beside it, if/then/else, schema dependencies. */
export function needsMerge(schema: JsonSchema): boolean {
  return Array.isArray(schema.allOf) || (typeof schema.$ref === 'string' && !isPureRef(schema)) || 'if' in schema ||
    schemaDependencies(schema).length > 0;
}

function collect(schema: unknown, definitions: Record<string, JsonSchema>, inside: readonly string[], out: JsonSchema[]): void {
  if (!isSchemaObject(schema)) return;
  const { $ref, allOf, if: condition, then, else: otherwise, ...rest } = schema;
  const name = refName($ref);
  if (name !== undefined && Object.hasOwn(definitions, name) && !inside.includes(name)) {
    collect(definitions[name], definitions, [...inside, name], out);
  }
  if (Array.isArray(allOf)) for (const member of allOf) collect(member, definitions, inside, out);
  // Values made to satisfy `if` must satisfy `then`; only a schema no value satisfies leaves `else`.
  const branch = condition === undefined ? [] : isFalseSchema(condition) ? [otherwise] : [condition, then];
  for (const member of branch) collect(member, definitions, inside, out);
  // A dependent schema holds whenever its property is present: satisfying it always is simplest.
  const dependencies = schemaDependencies(schema);
  for (const [, member] of dependencies) collect(member, definitions, inside, out);
  if (dependencies.length > 0) {
    const lists = Object.entries(rest.dependencies as JsonSchema).filter(([, v]) => Array.isArray(v));
    if (lists.length > 0) rest.dependencies = Object.fromEntries(lists);
    else delete rest.dependencies;
  }
  if (Object.keys(rest).length > 0) out.push(withoutCyclicVariants(rest, inside));
}

/** `dependencies` entries that are schemas (dependentSchemas), not property lists. */
function schemaDependencies(schema: JsonSchema): Array<[string, unknown]> {
  return isSchemaObject(schema.dependencies) ? Object.entries(schema.dependencies).filter(([, v]) => !Array.isArray(v)) : [];
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
      case 'unevaluatedProperties':
        out[key] = isFalseSchema(current) || isFalseSchema(value) ? false : both(current, value);
        break;
      case 'propertyNames':
        out.propertyNames = both(current, value);
        break;
      case 'dependencies':
        out.dependencies = mergeDependencies(current, value);
        break;
      case 'multipleOf':
        out.multipleOf = typeof current === 'number' && typeof value === 'number' && current > 0 && value > 0 ? commonMultiple(current, value) : current;
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

/** Property lists of both (schema entries were folded in by collect). */
function mergeDependencies(a: unknown, b: unknown): JsonSchema {
  const out: JsonSchema = { ...(isSchemaObject(a) ? a : {}) };
  if (isSchemaObject(b)) {
    for (const [key, value] of Object.entries(b)) out[key] = [...new Set([...stringList(out[key]), ...stringList(value)])];
  }
  return out;
}

function mergeSchemaMaps(a: unknown, b: unknown): JsonSchema {
  const out: JsonSchema = { ...(isSchemaObject(a) ? a : {}) };
  if (isSchemaObject(b)) {
    for (const [key, value] of Object.entries(b)) out[key] = Object.hasOwn(out, key) ? both(out[key], value) : value;
  }
  return out;
}


/**
 * A member with `additionalProperties: false` rejects every property it does not declare,
 * whichever member added it: keep optional properties only when every closed member allows them.
 */
function dropClosedOutProperties(merged: JsonSchema, members: JsonSchema[]): void {
  // unevaluatedProperties sees the properties every member evaluates: it closes only the merged whole.
  const closed = members.filter((m) => isFalseSchema(m.additionalProperties));
  if (closed.length === 0 || !isSchemaObject(merged.properties)) return;
  const required = new Set(stringList(merged.required));
  const allowedBy = (member: JsonSchema, key: string) =>
    (isSchemaObject(member.properties) && Object.hasOwn(member.properties, key)) ||
    (isSchemaObject(member.patternProperties) &&
      Object.keys(member.patternProperties).some((pattern) => patternAccepts(pattern, key)));
  const properties: JsonSchema = {};
  for (const [key, value] of Object.entries(merged.properties)) {
    if (required.has(key) || closed.every((member) => allowedBy(member, key))) properties[key] = value;
  }
  merged.properties = properties;
}
