import type { JsonSchema } from './types.js';
import { pointerIndex, resolvePointer } from './pointer.js';
import { DATA_SOURCE, dataSourceOf } from './data-source.js';
import { PatternError, compileLinear } from '../../common/patterns/index.js';

/** Keywords whose value is one schema. */
const SCHEMA_KEYS = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems'];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYS = ['allOf', 'anyOf', 'oneOf'];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYS = ['properties', 'patternProperties'];
/** Documentation-only keywords dropped from the IR to keep generated code small. */
const DROPPED = new Set(['externalDocs', 'deprecated', 'nullable', '$schema', '$id', '$comment', 'contentEncoding', 'contentMediaType', '$defs', 'definitions']);

const DEF_PREFIX = '#/definitions/';
const COMPONENT_SCHEMA = /^#\/components\/schemas\/([^/]+)$/;

/**
 * Lowers OpenAPI schemas into the IR's draft-07 vocabulary and collects every referenced
 * schema into one definitions table, so validators and generators share names.
 */
export class SchemaRegistry {
  readonly definitions: Record<string, JsonSchema> = {};
  private readonly names = new Map<string, string>();
  private readonly taken = new Set<string>();
  /** What lowering left out of the schemas, and why (build warnings). */
  readonly warnings: string[] = [];
  private document: unknown = {};
  private scope = '';
  private source = '';
  /** Where each object of the document is, built when a warning first needs it. */
  private pointers: WeakMap<object, string> | undefined;
  /** The schema objects being lowered, outermost first: a warning names the nearest one in the document. */
  private readonly trail: object[] = [];

  /** Switches to the next description (`source` names it in warnings); names already taken stay taken across descriptions. */
  use(document: unknown, scope: string, source = ''): void {
    this.document = document;
    this.scope = scope;
    this.source = source;
    this.pointers = undefined;
  }

  normalize(input: unknown): JsonSchema {
    if (input === true || input === undefined) return {};
    if (input === false) return { not: {} };
    if (!input || typeof input !== 'object' || Array.isArray(input)) return {};
    const schema = input as Record<string, unknown>;

    if (typeof schema.$ref === 'string') return this.normalizeRef(schema);
    this.trail.push(schema);
    try {
      return this.normalizeObject(schema);
    } finally {
      this.trail.pop();
    }
  }

  private normalizeObject(schema: Record<string, unknown>): JsonSchema {
    const out: JsonSchema = {};
    let patternLeftOut = false;
    for (const [key, value] of Object.entries(schema)) {
      if (key === DATA_SOURCE) {
        const source = dataSourceOf(schema);
        if (source !== undefined) out[key] = source;
        continue;
      }
      if (DROPPED.has(key) || key.startsWith('x-')) continue;
      if (SCHEMA_KEYS.includes(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) out[key] = this.normalize(value);
      else if (SCHEMA_KEYS.includes(key) && typeof value === 'boolean') out[key] = value;
      else if (key === 'items' && Array.isArray(value)) out[key] = value.map((v) => this.normalize(v));
      else if (SCHEMA_LIST_KEYS.includes(key) && Array.isArray(value)) out[key] = value.map((v) => this.normalize(v));
      else if (key === 'patternProperties' && value && typeof value === 'object') {
        const kept = Object.entries(value as Record<string, unknown>).filter(([pattern]) => isJsRegExp(pattern) && this.linear(pattern, 'patternProperties key'));
        patternLeftOut = kept.length < Object.keys(value).length;
        out[key] = this.normalizeMap(Object.fromEntries(kept));
      } else if (SCHEMA_MAP_KEYS.includes(key) && value && typeof value === 'object') out[key] = this.normalizeMap(value as Record<string, unknown>);
      else if (key === 'discriminator' && value && typeof value === 'object') out[key] = this.normalizeDiscriminator(value as Record<string, unknown>);
      else if (key === 'examples' && !Array.isArray(value)) continue;
      else if (key === 'required') { if (Array.isArray(value) && value.length > 0) out[key] = [...new Set(value)]; }
      else if (key === 'type') { const type = lowerType(value); if (type !== undefined) out.type = type; }
      else if (key === 'enum') { if (Array.isArray(value) && value.length > 0) out.enum = value; }
      else if (key === 'pattern') { if (isJsRegExp(value) && this.linear(value, 'pattern')) out.pattern = value; }
      else out[key] = value;
    }
    foldExclusiveBounds(out, schema);
    if (patternLeftOut) {
      // which names are "additional" depends on the patterns left out: not enforced either
      delete out.additionalProperties;
      delete out.unevaluatedProperties;
    }
    this.lowerTuple(out, schema);
    this.lowerDependencies(out, schema);
    if (schema.nullable === true) return makeNullable(out);
    return out;
  }

  /** 2020-12 `prefixItems` (+ `items` for the rest) is draft-07's tuple `items` (+ `additionalItems`). */
  private lowerTuple(out: JsonSchema, source: Record<string, unknown>): void {
    if (!Array.isArray(source.prefixItems)) return;
    delete out.prefixItems;
    if (source.items !== undefined && !Array.isArray(source.items)) out.additionalItems = out.items;
    out.items = source.prefixItems.map((item) => this.normalize(item));
  }

  /** `dependentRequired` and `dependentSchemas` (2019-09) are the two halves of draft-07's `dependencies`. */
  private lowerDependencies(out: JsonSchema, source: Record<string, unknown>): void {
    const dependencies: Record<string, unknown> = {};
    for (const key of ['dependencies', 'dependentRequired', 'dependentSchemas']) {
      const map = source[key];
      delete out[key];
      if (!map || typeof map !== 'object' || Array.isArray(map)) continue;
      for (const [name, value] of Object.entries(map as Record<string, unknown>)) {
        const lowered = Array.isArray(value) ? value.filter((v) => typeof v === 'string') : this.normalize(value);
        // A property with both a list and a schema: the list becomes the schema's `required`.
        const both = Object.hasOwn(dependencies, name) ? [dependencies[name], lowered] : [lowered];
        const list = both.find(Array.isArray);
        const schema = both.find((d) => !Array.isArray(d));
        dependencies[name] = list && schema ? { allOf: [{ required: list }, schema] } : lowered;
      }
    }
    if (Object.keys(dependencies).length > 0) out.dependencies = dependencies;
  }

  /** Name under #/definitions/ for a $ref, registering (and normalising) its target on first sight. */
  refName(ref: string): string {
    const key = `${this.scope}\u0000${ref}`;
    const known = this.names.get(key);
    if (known) return known;
    const name = this.uniqueName(ref);
    this.names.set(key, name);
    this.definitions[name] = {};
    this.definitions[name] = this.normalize(resolvePointer(this.document, ref) ?? {});
    return name;
  }

  private normalizeRef(schema: Record<string, unknown>): JsonSchema {
    const ref = { $ref: DEF_PREFIX + this.refName(schema.$ref as string) };
    // 3.1 allows siblings next to $ref; 3.0 ignores them except the nullable idiom we honour
    const siblings = Object.keys(schema).filter((k) => k !== '$ref' && k !== 'nullable' && !k.startsWith('x-') && !DOC_ONLY.has(k));
    let out: JsonSchema = ref;
    if (siblings.length > 0) {
      const rest = this.normalize(Object.fromEntries(siblings.map((k) => [k, schema[k]])));
      out = { allOf: [ref, rest] };
    }
    if (schema.nullable === true) out = { anyOf: [out, { type: 'null' }] };
    return out;
  }

  private normalizeMap(map: Record<string, unknown>): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const [name, value] of Object.entries(map)) out[name] = this.normalize(value);
    return out;
  }

  /**
   * Whether a description's pattern runs on the linear-time engine. Patterns run on request data
   * (and at build time on examples and samples), where a backtracking engine takes exponential
   * time on some of them (`^(a+)+$`): one the engine cannot run (a lookaround, a backreference)
   * is left out, not enforced, with a warning naming where it is.
   */
  private linear(pattern: string, what: string): boolean {
    try {
      compileLinear(pattern);
      return true;
    } catch (e) {
      if (!(e instanceof PatternError)) throw e;
      this.warnings.push(`${this.where()}: the ${what} ${JSON.stringify(pattern)} ${e.message}; it is not enforced (requests are not checked against it, generated values ignore it)`);
      return false;
    }
  }

  /** The description and the JSON pointer of the schema being lowered (or of the nearest enclosing one in the document). */
  private where(): string {
    this.pointers ??= pointerIndex(this.document);
    for (let i = this.trail.length - 1; i >= 0; i--) {
      const pointer = this.pointers.get(this.trail[i]);
      if (pointer !== undefined) return `${this.source}${pointer}`;
    }
    return `${this.source || 'a description'}: a schema`;
  }

  private normalizeDiscriminator(value: Record<string, unknown>): JsonSchema {
    const out: JsonSchema = { propertyName: value.propertyName };
    if (value.mapping && typeof value.mapping === 'object') {
      const mapping: Record<string, string> = {};
      for (const [k, target] of Object.entries(value.mapping as Record<string, unknown>)) {
        if (typeof target !== 'string') continue;
        const ref = target.startsWith('#') ? target : `#/components/schemas/${target}`;
        if (resolvePointer(this.document, ref) !== undefined) mapping[k] = DEF_PREFIX + this.refName(ref);
      }
      out.mapping = mapping;
    }
    return out;
  }

  private uniqueName(ref: string): string {
    const component = COMPONENT_SCHEMA.exec(ref);
    const raw = component ? decodeURIComponent(component[1]) : ref.replace(/^#\/?/, '').split('/').map((s) => decodeURIComponent(s)).join('_');
    const base = raw.replace(/~1/g, '_').replace(/~0/g, '_').replace(/[^A-Za-z0-9_.-]/g, '_') || 'schema';
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}_${i}`;
    this.taken.add(name);
    return name;
  }
}

/** Keys that carry no validation meaning next to a $ref. */
const DOC_ONLY = new Set(['description', 'title', 'example', 'examples', 'summary', 'deprecated', 'externalDocs', 'xml']);

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Keeps JSON types only; Swagger's `file` is a binary string. */
function lowerType(value: unknown): unknown {
  const one = (t: unknown): string | undefined => (t === 'file' ? 'string' : typeof t === 'string' && JSON_TYPES.has(t) ? t : undefined);
  if (!Array.isArray(value)) return one(value);
  const types = [...new Set(value.map(one).filter((t): t is string => t !== undefined))];
  return types.length === 0 ? undefined : types.length === 1 ? types[0] : types;
}

/** Patterns in the wild use PCRE-only syntax; such a pattern cannot be checked in JavaScript, so it is dropped. */
function isJsRegExp(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    new RegExp(value);
    return true;
  } catch {
    return false;
  }
}

function foldExclusiveBounds(out: JsonSchema, source: Record<string, unknown>): void {
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (source[flag] === true && typeof source[bound] === 'number') {
      out[flag] = source[bound];
      delete out[bound];
    } else if (typeof source[flag] === 'boolean') {
      delete out[flag];
    }
  }
}

function makeNullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === 'string') schema.type = type === 'null' ? type : [type, 'null'];
  else if (Array.isArray(type)) { if (!type.includes('null')) schema.type = [...type, 'null']; }
  else return { anyOf: [schema, { type: 'null' }] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  return schema;
}
