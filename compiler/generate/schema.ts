/** Read-only questions about (normalised, draft-07) schemas. */
import type { JsonSchema } from '../ir/types.js';
import { PatternError, compileLinear, type LinearPattern } from '../../common/patterns/index.js';
import { integerFormatRange } from './formats.js';

export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const REF_PREFIX = '#/definitions/';

/** The definition name a `#/definitions/<Name>` pointer (or bare mapping value) designates. */
export function refName(ref: unknown): string | undefined {
  if (typeof ref !== 'string') return undefined;
  if (!ref.startsWith(REF_PREFIX)) return ref.includes('/') || ref.includes('#') ? undefined : ref;
  const token = ref.slice(REF_PREFIX.length);
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // Not percent-encoded after all: the raw token is the name.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Keywords that describe but never constrain, so a `$ref` beside them is still a plain reference. */
const ANNOTATIONS = new Set([
  'title', 'description', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly',
  'xml', 'externalDocs', '$comment', '$id', '$schema', 'nullable', 'discriminator', 'contentMediaType',
  'contentEncoding',
]);

export function isAnnotation(key: string): boolean {
  return ANNOTATIONS.has(key) || key.startsWith('x-');
}

export function hasConstraints(schema: JsonSchema): boolean {
  return Object.keys(schema).some((key) => !isAnnotation(key));
}

/** A `$ref` whose siblings are all annotations. */
export function isPureRef(schema: JsonSchema): boolean {
  return typeof schema.$ref === 'string' && Object.keys(schema).every((key) => key === '$ref' || isAnnotation(key));
}

/** `false`, or `{not: {}}` as the normaliser spells it: no value is valid. */
export function isFalseSchema(schema: unknown): boolean {
  if (schema === false) return true;
  return isSchemaObject(schema) && Object.keys(schema).length === 1 && isSchemaObject(schema.not) && Object.keys(schema.not).length === 0;
}

export function isUnion(schema: JsonSchema): boolean {
  return Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf);
}

export function withoutKeys(schema: JsonSchema, keys: readonly string[]): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) if (!keys.includes(key)) out[key] = value;
  return out;
}

export function explicitTypes(schema: JsonSchema): string[] | undefined {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

export function allowsNull(schema: JsonSchema): boolean {
  return explicitTypes(schema)?.includes('null') === true;
}

export function isNullSchema(schema: JsonSchema): boolean {
  const types = explicitTypes(schema);
  if (types) return types.length > 0 && types.every((t) => t === 'null');
  if ('const' in schema) return schema.const === null;
  return Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((v) => v === null);
}

const OBJECT_KEYS = [
  'properties', 'additionalProperties', 'required', 'patternProperties', 'minProperties', 'maxProperties', 'propertyNames',
  'dependencies', 'unevaluatedProperties',
];
const ARRAY_KEYS = ['items', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains', 'additionalItems'];
const STRING_KEYS = ['minLength', 'maxLength', 'pattern'];
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

/**
 * The one JSON type to generate: the first non-null declared type, else what the keywords
 * (or an example) imply; 'any' when nothing does.
 */
export function inferType(schema: JsonSchema): string {
  const types = explicitTypes(schema);
  if (types && types.length > 0) return types.find((t) => t !== 'null') ?? 'null';
  const has = (keys: string[]) => keys.some((key) => key in schema);
  if (has(OBJECT_KEYS)) return 'object';
  if (has(ARRAY_KEYS)) return 'array';
  if (has(STRING_KEYS)) return 'string';
  if (has(NUMBER_KEYS)) return 'number';
  if (typeof schema.format === 'string') {
    if (integerFormatRange(schema.format)) return 'integer';
    return schema.format === 'float' || schema.format === 'double' ? 'number' : 'string';
  }
  return jsonType(exampleValues(schema)[0]) ?? 'any';
}

/** The values a schema documents as typical, in order: `example`, the first of `examples`, `default`. */
export function exampleValues(schema: JsonSchema): unknown[] {
  const first = Array.isArray(schema.examples) ? schema.examples.slice(0, 1) : [];
  return [schema.example, ...first, schema.default].filter((value) => value !== undefined && value !== null);
}

/**
 * What an object's undeclared properties must satisfy: `additionalProperties`, else
 * `unevaluatedProperties` (which, without other applicators, constrains the same ones).
 */
export function extraProperties(schema: JsonSchema): unknown {
  return 'additionalProperties' in schema ? schema.additionalProperties : schema.unevaluatedProperties;
}

/** An object that rejects every property it does not declare (or match by pattern). */
export function isClosed(schema: JsonSchema): boolean {
  return isFalseSchema(extraProperties(schema));
}

/** The first `patternProperties` entry whose pattern the linear-time engine runs, as [pattern, schema]. */
export function firstPatternProperty(schema: JsonSchema): [string, unknown] | undefined {
  if (!isSchemaObject(schema.patternProperties)) return undefined;
  return Object.entries(schema.patternProperties).find(([pattern]) => linearPattern(pattern) !== undefined);
}

/** Whether `value` matches `pattern` as the generated validators run it; false when it cannot run in linear time. */
export function patternAccepts(pattern: string, value: string): boolean {
  return linearPattern(pattern)?.test(value) ?? false;
}

const compiled = new Map<string, LinearPattern | undefined>();

/**
 * A description's pattern on the linear-time engine, compiled once: build-time samples and
 * examples are matched as requests are, never on the backtracking engine (where a failing
 * example of `^(a+)+$` would hang the build).
 */
export function linearPattern(pattern: string): LinearPattern | undefined {
  if (!compiled.has(pattern)) {
    try {
      compiled.set(pattern, compileLinear(pattern));
    } catch (e) {
      if (!(e instanceof PatternError)) throw e;
      compiled.set(pattern, undefined);
    }
  }
  return compiled.get(pattern);
}

export function jsonType(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object') return typeof value;
  return undefined;
}

/** Whether a value's JSON type is one of `types` (integers are numbers too). */
export function typeMatches(value: unknown, types: readonly string[] | undefined): boolean {
  if (!types) return true;
  const type = jsonType(value);
  return type !== undefined && (types.includes(type) || (type === 'integer' && types.includes('number')));
}

export function nonNegativeInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

const SINGLE_SUBSCHEMAS = ['additionalProperties', 'unevaluatedProperties', 'items', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];
const LIST_SUBSCHEMAS = ['allOf', 'anyOf', 'oneOf', 'items'];
const MAP_SUBSCHEMAS = ['properties', 'patternProperties', 'dependencies'];

/** Calls `visit` on `schema` and every schema nested in it (not following `$ref`s). */
export function walk(schema: unknown, visit: (schema: JsonSchema) => void): void {
  if (!isSchemaObject(schema)) return;
  visit(schema);
  for (const key of SINGLE_SUBSCHEMAS) if (isSchemaObject(schema[key])) walk(schema[key], visit);
  for (const key of LIST_SUBSCHEMAS) {
    const list = schema[key];
    if (Array.isArray(list)) for (const member of list) walk(member, visit);
  }
  for (const key of MAP_SUBSCHEMAS) {
    const map = schema[key];
    if (isSchemaObject(map)) for (const member of Object.values(map)) walk(member, visit);
  }
}

/** Keywords that change nothing in generated code (unlike example/default, which do). */
const DOCUMENTATION = new Set(['title', 'description', '$comment', 'deprecated', 'externalDocs', 'xml']);

/** A schema's JSON without documentation, so differently documented copies share one helper. */
export function shapeKey(schema: unknown): string {
  return JSON.stringify(undocumented(schema));
}

function undocumented(schema: unknown): unknown {
  if (!isSchemaObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DOCUMENTATION.has(key) || key.startsWith('x-')) continue;
    if (MAP_SUBSCHEMAS.includes(key) && isSchemaObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, undocumented(member)]));
    } else if (LIST_SUBSCHEMAS.includes(key) && Array.isArray(value)) out[key] = value.map(undocumented);
    else out[key] = SINGLE_SUBSCHEMAS.includes(key) ? undocumented(value) : value;
  }
  return out;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
