/**
 * Turns schemas into specialised generator code. Every object, array item, record value and
 * random union becomes a named `function gen_X(d)`, where `d` is the nesting depth of the value
 * it makes; depth bounds recursion without any schema interpretation at request time.
 */
import type { JsonSchema } from '../ir/types.js';
import type { GenMode, GeneratorEmitter, Language } from './api.js';
import { SchemaGraph } from './graph.js';
import { NameRegistry } from './names.js';
import { booleanExpr, integerExpr, numberExpr } from './numbers.js';
import { SchemaResolver } from './resolve.js';
import { planKeys } from './object-keys.js';
import {
  allowsNull, explicitTypes, extraProperties, finiteNumber, firstPatternProperty, hasConstraints, inferType, isClosed,
  isFalseSchema, isPureRef, isSchemaObject, isUnion, nonNegativeInteger, shapeKey, stringList, typeMatches,
} from './schema.js';
import { assignment, below, choose, deeper, type Depth, depthText, literal, PARAMETER, TOP } from './source.js';
import { SchemaJudge } from './judge.js';
import { loadGenerators, sample } from './samples.js';
import { stringExpr } from './strings.js';
import { vetUnion } from './union-vetting.js';
import {
  acceptsTag, asDiscriminator, discriminatorValue, planUnion, unionConstants, type UnionPlan, type Variant,
} from './unions.js';

/** Values a union variant is tried out with at build time, at each of two depths. */
const SAMPLES = 8;
/** Values at this depth or deeper get only what the schema requires (and null where allowed). */
const OPTIONAL_DEPTH = 6;
/** Recursive generators give up here: only schemas with no finite instance get that far. */
const GUARD_DEPTH = 16;
/** How deep required properties are followed to find that a schema admits no value. */
const NO_VALUE_DEPTH = 8;
/** Unbounded arrays get 1..this many items; records get 1..2 entries. */
const ARRAY_ITEMS = 3;
const RECORD_ENTRIES = 2;
const MAX_INLINE_NESTING = 200;
/** First statement of an object generator; TypeScript types the object so properties can be added. */
const NEW_OBJECT = 'const o = {};';
const NEW_OBJECT_TS = 'const o: Record<string, unknown> = {};';

/** Where a value is generated. */
interface Site {
  readonly mode: GenMode;
  readonly depth: Depth;
  /** Stem for the names of helpers created here. */
  readonly hint: string;
  /** Property or definition name, for realistic-value hints. */
  readonly name?: string;
  /** Inside a uniqueItems array: constant examples would repeat. */
  readonly unique: boolean;
  /** The definition whose own generator this is (for its discriminator value). */
  readonly definition?: string;
}

interface Constant {
  readonly name: string;
  readonly code: string;
}

interface GeneratorFunction {
  readonly name: string;
  /** Statements of the body, the same in JavaScript and TypeScript but for NEW_OBJECT. */
  lines: string[];
}

/** What an emitter shares with the emitters it starts to try union variants out. */
interface Shared {
  readonly judge: SchemaJudge;
  /** Union plans by mode and shape; a union being vetted has its unvetted plan here meanwhile (for recursion). */
  readonly plans: Map<string, UnionPlan>;
}

export class Emitter implements GeneratorEmitter {
  private readonly resolver: SchemaResolver;
  private readonly graph: SchemaGraph;
  private readonly shared: Shared;
  private readonly names = new NameRegistry();
  /** Module-level constants (enum arrays, compiled patterns), keyed by content. */
  private readonly constants = new Map<string, Constant>();
  /** Generator functions in creation order, keyed by everything their body depends on. */
  private readonly functions = new Map<string, GeneratorFunction>();
  /** Per mode, schemas (as viewed) known to admit no generated value, or not. */
  private readonly noValue: Record<GenMode, WeakMap<JsonSchema, boolean>> = { response: new WeakMap(), request: new WeakMap() };
  /** Optional properties left out because their schema admits no value, for the build's warnings. */
  private readonly omitted = new Set<string>();
  private nesting = 0;

  constructor(definitions: Record<string, JsonSchema>, shared?: Shared) {
    this.resolver = new SchemaResolver(definitions);
    this.graph = new SchemaGraph(definitions);
    this.shared = shared ?? { judge: new SchemaJudge(definitions), plans: new Map() };
  }

  expression(schema: JsonSchema, mode: GenMode, hint = 'inline'): string {
    const expr = this.value(schema, { mode, depth: TOP, hint, unique: false });
    // An object literal would read as a block after `=>` or at the start of a statement.
    return expr.startsWith('{') ? `(${expr})` : expr;
  }

  declarations(language: Language = 'js'): string {
    const constants = [...this.constants.values()].map((constant) => constant.code);
    const functions = [...this.functions.values()].map((fn) => functionSource(fn, language));
    return [...constants, ...functions].join('');
  }

  definitionCall(name: string, mode: GenMode): string | undefined {
    return this.functions.get(this.definitionKey(name, mode))?.name.concat('(0)');
  }

  leftOut(): string[] {
    return [...this.omitted];
  }

  sample(expressions: readonly string[], count: number): unknown[][] {
    const generators = loadGenerators(this.declarations(), expressions.map((expression) => `(d) => ${expression}`));
    return generators.map((generate) => sample(generate, count));
  }

  /** An expression producing a value of `schema` at `site`. */
  private value(schema: unknown, site: Site): string {
    // Inline nesting is finite for any schema the merge rules accept; this stops a pathological
    // one from overflowing the stack.
    if (this.nesting > MAX_INLINE_NESTING) return 'null';
    this.nesting++;
    try {
      return this.valueOf(schema, site);
    } finally {
      this.nesting--;
    }
  }

  private valueOf(schema: unknown, site: Site): string {
    if (isFalseSchema(schema)) return 'null';
    if (!isSchemaObject(schema)) return 'g.word()';
    const target = this.resolver.target(schema);
    if (target !== undefined) return this.call(this.definitionFunction(target, site.mode), site.depth);
    // A reference to a definition that does not exist constrains nothing.
    if (isPureRef(schema)) return 'g.word()';
    const s = this.resolver.normalize(schema);
    // const/enum beside a union pin the value more tightly than any variant would.
    if ('const' in s) return literal(s.const);
    if (Array.isArray(s.enum) && s.enum.length > 0) return this.enumValue(this.enumChoices(s)!, site);
    if (isUnion(s)) {
      const constants = unionConstants(s, this.resolver);
      return constants ? this.enumValue(constants, site) : this.unionValue(s, this.unionPlan(s, site.mode), site);
    }
    const orNull = (expr: string) => (allowsNull(s) ? choose(below(site.depth, OPTIONAL_DEPTH), expr, 'null') : expr);
    const useExample = !site.unique;
    switch (inferType(s)) {
      case 'object':
        return orNull(this.call(this.objectFunction(s, site), site.depth));
      case 'array':
        return orNull(this.arrayValue(s, site));
      case 'string':
        return stringExpr(s, { name: site.name, useExample, pattern: (source, max) => this.pattern(source, max, site.hint) });
      case 'integer':
        return integerExpr(s, site.name, useExample);
      case 'number':
        return numberExpr(s, site.name, useExample);
      case 'boolean':
        return booleanExpr(s, useExample);
      case 'null':
        return 'null';
      default:
        return 'g.word()';
    }
  }

  /** Statements of a generator function body for `schema` (depth parameter `d`). */
  private body(schema: unknown, site: Site): string[] {
    if (!isSchemaObject(schema) || this.resolver.target(schema) !== undefined) {
      return [`return ${this.value(schema, site)};`];
    }
    const s = this.resolver.normalize(schema, site.definition);
    if (isUnion(s) && !('const' in s) && !Array.isArray(s.enum) && !unionConstants(s, this.resolver)) {
      const plan = this.unionPlan(s, site.mode);
      if (plan.variants.length > 1) return this.unionSwitch(plan, site);
      return [`return ${this.unionValue(s, plan, site)};`];
    }
    if (!('const' in s) && !Array.isArray(s.enum) && inferType(s) === 'object') {
      const stop = allowsNull(s) ? [`if (d >= ${OPTIONAL_DEPTH}) return null;`] : [];
      return [...stop, ...this.objectBody(s, site)];
    }
    return [`return ${this.value(s, site)};`];
  }

  private call(fn: string, depth: Depth): string {
    // A call at the caller's own depth would let alias chains (A = B, B = A) recurse forever.
    const at = depth.variable && depth.offset === 0 ? deeper(depth) : depth;
    return `${fn}(${depthText(at)})`;
  }

  /** Creates a generator function once per key; its name is claimed before the body is built, so recursion finds it. */
  private helperFunction(key: string, stem: string, build: () => string[]): string {
    const existing = this.functions.get(key);
    if (existing) return existing.name;
    const fn: GeneratorFunction = { name: this.names.claim('gen', stem), lines: [] };
    this.functions.set(key, fn);
    fn.lines = build();
    return fn.name;
  }

  private constant(key: string, prefix: string, stem: string, init: string): string {
    let constant = this.constants.get(key);
    if (!constant) {
      const name = this.names.claim(prefix, stem);
      constant = { name, code: `const ${name} = ${init};\n` };
      this.constants.set(key, constant);
    }
    return constant.name;
  }

  private pattern(source: string, max: number, stem: string): string {
    return this.constant(JSON.stringify(['pattern', source, max]), 'pattern', stem, `g.compilePattern(${literal(source)}, ${max})`);
  }

  /** Mode matters to a helper only if readOnly/writeOnly is reachable from its schema. */
  private modeKey(schema: unknown, mode: GenMode): string {
    return this.graph.isModeSensitive(schema) ? mode : '';
  }

  private definitionKey(name: string, mode: GenMode): string {
    return JSON.stringify(['definition', this.graph.isDefinitionModeSensitive(name) ? mode : '', name]);
  }

  private definitionFunction(name: string, mode: GenMode): string {
    const sensitive = this.graph.isDefinitionModeSensitive(name);
    const stem = sensitive && mode === 'request' ? `${name}_request` : name;
    return this.helperFunction(this.definitionKey(name, mode), stem, () => {
      const schema = this.resolver.definitions[name];
      const site: Site = { mode, depth: PARAMETER, hint: name, name, unique: false, definition: name };
      const lines = this.body(schema, site);
      if (!this.graph.isRecursive(name)) return lines;
      return [`if (d > ${GUARD_DEPTH}) return ${this.minimal(this.resolver.view(schema, name))};`, ...lines];
    });
  }

  /** The smallest value of roughly the right shape, for generators cut off by the guard. */
  private minimal(view: JsonSchema): string {
    if (allowsNull(view) || isUnion(view)) return 'null';
    switch (inferType(view)) {
      case 'object':
        return '{}';
      case 'array':
        return '[]';
      case 'string':
        return '""';
      case 'integer':
      case 'number':
        return '0';
      case 'boolean':
        return 'false';
      default:
        return 'null';
    }
  }

  /** A function generating `schema` values, for arrays and records to call per item. */
  private itemFunction(schema: unknown, site: Site, suffix: string): string {
    const target = isSchemaObject(schema) ? this.resolver.target(schema) : undefined;
    if (target !== undefined) return this.definitionFunction(target, site.mode);
    const hint = `${site.hint}_${suffix}`;
    const key = JSON.stringify(['item', this.modeKey(schema, site.mode), site.name ?? '', site.unique, shapeKey(schema ?? {})]);
    return this.helperFunction(key, hint, () => this.body(schema ?? {}, { ...site, depth: PARAMETER, hint, definition: undefined }));
  }

  private objectFunction(s: JsonSchema, site: Site): string {
    const key = JSON.stringify(['object', this.modeKey(s, site.mode), site.unique, shapeKey(s)]);
    return this.helperFunction(key, site.hint, () => this.objectBody(s, { ...site, depth: PARAMETER, definition: undefined }));
  }

  private objectBody(s: JsonSchema, site: Site): string[] {
    const properties = isSchemaObject(s.properties) ? s.properties : {};
    const tag = this.ownTag(s, properties, site.definition);
    const required = new Set(stringList(s.required));
    // An optional property no generated value satisfies is left out, so the object still matches its schema.
    const noValue = (key: string): boolean => {
      if (required.has(key) || key === tag?.property || !this.admitsNoValue(properties[key], site.mode, 0)) return false;
      this.omitted.add(`the optional property ${JSON.stringify(key)} of ${site.definition ?? site.hint} is left out of generated ${site.mode}s: the generator finds no value its schema accepts`);
      return true;
    };
    const plan = planKeys(s, (key) => this.resolver.isHidden(properties[key], site.mode) || noValue(key), tag?.property);
    const minProperties = nonNegativeInteger(s.minProperties) ?? 0;
    if (plan.keys.length === 0) {
      return [`return ${this.freeObject(s, site, minProperties, nonNegativeInteger(s.maxProperties))};`];
    }
    const child = (key: string): Site =>
      ({ ...site, depth: deeper(site.depth), hint: `${site.hint}_${key}`, name: key, definition: undefined });
    const extra = extraProperties(s);
    const extraSchema = isSchemaObject(extra) ? extra : {};
    const lines = [NEW_OBJECT];
    let optionalRun: string[] = [];
    const flush = () => {
      if (optionalRun.length === 1) lines.push(`if (d < ${OPTIONAL_DEPTH}) ${optionalRun[0]}`);
      else if (optionalRun.length > 1) lines.push(`if (d < ${OPTIONAL_DEPTH}) {`, ...optionalRun.map((l) => `  ${l}`), '}');
      optionalRun = [];
    };
    for (const { key, always } of plan.keys) {
      const schema = Object.hasOwn(properties, key) ? properties[key] : extraSchema;
      const value = tag?.property === key ? literal(tag.value) : this.value(schema, child(key));
      const statement = assignment('o', key, value);
      if (always) {
        flush();
        lines.push(statement);
      } else optionalRun.push(statement);
    }
    flush();
    // minProperties beyond what is declared: pad with extra entries.
    const keys = plan.padding > 0 ? this.keyFunction(s, site) : undefined;
    if (keys) {
      // Drawn keys may collide with declared ones: those keep their own values.
      const entries = `g.record(${this.entryFunction(s, site)}, ${depthText(deeper(site.depth))}, ${plan.padding}, ${plan.padding}, ${keys})`;
      return [...lines, `return Object.assign(${entries}, o);`];
    }
    for (let n = 1, added = 0; added < plan.padding; n++) {
      const key = `key${n}`;
      if (Object.hasOwn(properties, key) || plan.keys.some((planned) => planned.key === key)) continue;
      lines.push(assignment('o', key, this.value(extraSchema, child(key))));
      added++;
    }
    lines.push('return o;');
    return lines;
  }

  /**
   * Whether no value the generator makes satisfies `schema`, from what the build knows anyway: a
   * false schema, a const or enum with no value of the declared type, a oneOf whose sampled variants
   * never satisfy exactly one member, or an object requiring such a property.
   */
  private admitsNoValue(schema: unknown, mode: GenMode, depth: number): boolean {
    if (isFalseSchema(schema)) return true;
    if (!isSchemaObject(schema) || depth > NO_VALUE_DEPTH) return false;
    const view = this.resolver.view(schema);
    const known = this.noValue[mode].get(view);
    if (known !== undefined) return known;
    let none = isFalseSchema(view);
    const types = explicitTypes(view);
    if ('const' in view) none = !typeMatches(view.const, types);
    else if (Array.isArray(view.enum) && view.enum.length > 0) none = !view.enum.some((value) => typeMatches(value, types));
    else if (isUnion(view)) none = !unionConstants(view, this.resolver) && this.unionPlan(view, mode).unsatisfied === true;
    else if (inferType(view) === 'object' && isSchemaObject(view.properties)) {
      const properties = view.properties;
      none = stringList(view.required).some(
        (key) => Object.hasOwn(properties, key) && !this.resolver.isHidden(properties[key], mode) && this.admitsNoValue(properties[key], mode, depth + 1),
      );
    }
    this.noValue[mode].set(view, none);
    return none;
  }

  /** A definition carrying a discriminator names itself in it (e.g. Cat = allOf [Pet, ...]). */
  private ownTag(s: JsonSchema, properties: JsonSchema, definition: string | undefined) {
    const discriminator = asDiscriminator(s.discriminator);
    if (!discriminator || definition === undefined || !Object.hasOwn(properties, discriminator.propertyName)) return undefined;
    const value = discriminatorValue(discriminator, definition);
    if (!acceptsTag(this.resolver.view(properties[discriminator.propertyName]), value)) return undefined;
    return { property: discriminator.propertyName, value };
  }

  /**
   * An object without declared properties: entries from additionalProperties (or a pattern
   * property), under keys that propertyNames and the pattern accept.
   */
  private freeObject(s: JsonSchema, site: Site, min: number, max: number | undefined): string {
    const keys = this.keyFunction(s, site);
    const values = firstPatternProperty(s)?.[1] ?? extraProperties(s);
    if (keys === undefined && isClosed(s)) return '{}';
    const described = isSchemaObject(values) && hasConstraints(values);
    if (!described && min === 0) return '{}';
    const fn = this.entryFunction(s, site);
    const items = depthText(deeper(site.depth));
    const high = Math.min(max ?? Infinity, Math.max(min, RECORD_ENTRIES));
    const record = (from: number, to: number) => `g.record(${fn}, ${items}, ${from}, ${to}${keys ? `, ${keys}` : ''})`;
    return choose(below(site.depth, OPTIONAL_DEPTH), record(Math.min(Math.max(min, 1), high), high), min === 0 ? '{}' : record(min, min));
  }

  /** The generator of undeclared entries' values: the first pattern property's schema, else additionalProperties. */
  private entryFunction(s: JsonSchema, site: Site): string {
    const values = firstPatternProperty(s)?.[1] ?? extraProperties(s);
    return this.itemFunction(isSchemaObject(values) && hasConstraints(values) ? values : {}, site, 'value');
  }

  /** A generator of keys when propertyNames or patternProperties constrain them (else the runtime's words do). */
  private keyFunction(s: JsonSchema, site: Site): string | undefined {
    const pattern = firstPatternProperty(s)?.[0];
    const names = isSchemaObject(s.propertyNames) ? [s.propertyNames] : [];
    if (pattern === undefined && names.length === 0) return undefined;
    const schema = { allOf: [{ type: 'string' }, ...names, ...(pattern === undefined ? [] : [{ pattern }])] };
    return this.itemFunction(schema, { ...site, name: undefined }, 'key');
  }

  private arrayValue(s: JsonSchema, site: Site): string {
    const { items } = s;
    const min = nonNegativeInteger(s.minItems) ?? 0;
    let max = nonNegativeInteger(s.maxItems) ?? Infinity;
    if (isFalseSchema(items)) return '[]';
    const inner = deeper(site.depth);
    if (Array.isArray(items)) {
      // Tuple: exactly the listed items (more from additionalItems when minItems asks for them).
      const count = Math.min(max, Math.max(items.length, min));
      const extra = isSchemaObject(s.additionalItems) ? s.additionalItems : {};
      const elements = Array.from({ length: count }, (_, i) =>
        this.value(i < items.length ? items[i] : extra, { ...site, depth: inner, hint: `${site.hint}_${i}` }),
      );
      return `[${elements.join(', ')}]`;
    }
    const unique = s.uniqueItems === true;
    const itemView = this.resolver.view(items);
    if (unique) max = Math.min(max, this.domainSize(itemView));
    const contains = containsPlan(s);
    // Any item may match `contains`: keeping to maxContains items keeps the count in bounds.
    if (contains) max = Math.min(max, contains.max);
    const least = Math.max(min, contains?.min ?? 0);
    const low = Math.max(least, Math.min(1, max));
    const high = Math.min(max, Math.max(low, ARRAY_ITEMS));
    let make: (from: number, to: number) => string;
    const choices = unique && !contains ? this.choices(itemView) : undefined;
    const array = (fn: string, from: number, to: number, first = '') =>
      `g.${unique ? 'uniqueArray' : 'array'}(${fn}, ${depthText(inner)}, ${from}, ${to}${first && `, ${first}`})`;
    if (choices) {
      const values = this.constant(JSON.stringify(['values', choices]), 'values', site.hint, literal(choices));
      make = (from, to) => `g.sample(${values}, ${from}, ${to})`;
    } else {
      const fn = this.itemFunction(items, { ...site, unique }, 'item');
      make = (from, to) => array(fn, from, to);
    }
    if (contains && contains.min > 0) {
      // minContains items made to match `contains` (and `items`) come first, then the rest.
      const matching = isSchemaObject(items) && hasConstraints(items) ? { allOf: [items, contains.schema] } : contains.schema;
      const first = array(this.itemFunction(matching, { ...site, unique }, 'contains'), contains.min, contains.min);
      const fn = this.itemFunction(items, { ...site, unique }, 'item');
      make = (from, to) => (to <= contains.min ? first : array(fn, from, to, first));
    }
    return choose(below(site.depth, OPTIONAL_DEPTH), make(low, high), least === 0 ? '[]' : make(least, least));
  }

  /** How many distinct values an item schema allows (Infinity when plenty). */
  private domainSize(view: JsonSchema): number {
    const choices = this.choices(view);
    if (choices) return choices.length;
    const type = inferType(view);
    if (type === 'boolean') return 2;
    if (type === 'null') return 1;
    if (type === 'integer') {
      const low = finiteNumber(view.minimum);
      const high = finiteNumber(view.maximum);
      if (low !== undefined && high !== undefined) return Math.max(0, Math.floor(high) - Math.ceil(low) + 1);
    }
    return Infinity;
  }

  /** The finite set of values a schema allows, when it is one (const, enum or a union of those). */
  private choices(view: JsonSchema): unknown[] | undefined {
    if ('const' in view) return [view.const];
    return this.enumChoices(view) ?? (isUnion(view) ? unionConstants(view, this.resolver) : undefined);
  }

  /** The enum values worth generating: those of a declared type, non-null ones first. */
  private enumChoices(s: JsonSchema): unknown[] | undefined {
    if (!Array.isArray(s.enum) || s.enum.length === 0) return undefined;
    const types = explicitTypes(s);
    const typed = s.enum.filter((value) => typeMatches(value, types));
    const pool = typed.length > 0 ? typed : s.enum;
    const nonNull = pool.filter((value) => value !== null);
    return nonNull.length > 0 ? nonNull : pool;
  }

  private enumValue(choices: unknown[], site: Site): string {
    if (choices.length === 1) return literal(choices[0]);
    const values = this.constant(JSON.stringify(['values', choices]), 'values', site.hint, literal(choices));
    const scalar = choices.every((value) => value === null || typeof value !== 'object');
    return scalar ? `g.pick(${values})` : `g.clone(g.pick(${values}))`;
  }

  /** The variants of a union to generate: planned once per shape and mode, vetted by sampling when unproven. */
  private unionPlan(s: JsonSchema, mode: GenMode): UnionPlan {
    const key = JSON.stringify([this.modeKey(s, mode), shapeKey(s)]);
    let plan = this.shared.plans.get(key);
    if (!plan) {
      plan = planUnion(s, this.resolver);
      this.shared.plans.set(key, plan);
      if (plan.unproven) {
        plan = vetUnion(plan, mode, this.shared.judge, (variant) => this.sampleVariant(variant, mode));
        this.shared.plans.set(key, plan);
      }
    }
    return plan;
  }

  /** Values of a variant form, from a fresh emitter: at the top and past the optional depth. */
  private sampleVariant(variant: Variant, mode: GenMode): unknown[] {
    const emitter = new Emitter(this.resolver.definitions, this.shared);
    const site: Site = { mode, depth: PARAMETER, hint: 'sample', unique: false };
    const name = emitter.helperFunction('sample', 'sample', () => [`return ${emitter.variantValue(variant, site)};`]);
    const [generate] = loadGenerators(emitter.declarations(), [name]);
    return sample(generate!, SAMPLES, [0, OPTIONAL_DEPTH]);
  }

  /** A union decided at build time, or a call to a helper choosing among variants at random. */
  private unionValue(s: JsonSchema, plan: UnionPlan, site: Site): string {
    const [first] = plan.variants;
    if (!first) return 'null';
    if (plan.variants.length > 1) {
      const key = JSON.stringify(['union', this.modeKey(s, site.mode), site.name ?? '', site.unique, shapeKey(s)]);
      const fn = this.helperFunction(key, site.hint, () => this.unionSwitch(plan, { ...site, depth: PARAMETER, definition: undefined }));
      return this.call(fn, site.depth);
    }
    const expr = this.variantValue(first, { ...site, depth: deeper(site.depth) });
    const composite = ['object', 'array'].includes(inferType(this.resolver.view(first.schema)));
    return plan.nullable && composite ? choose(below(site.depth, OPTIONAL_DEPTH), expr, 'null') : expr;
  }

  private unionSwitch(plan: UnionPlan, site: Site): string[] {
    const last = plan.variants.length - 1;
    const lines = plan.nullable ? [`if (d >= ${OPTIONAL_DEPTH}) return null;`] : [];
    lines.push(`switch (g.int(0, ${last})) {`);
    plan.variants.forEach((variant, i) => {
      const label = i < last ? `case ${i}:` : 'default:';
      lines.push(`  ${label} return ${this.variantValue(variant, { ...site, depth: deeper(site.depth) })};`);
    });
    lines.push('}');
    return lines;
  }

  private variantValue(variant: Variant, site: Site): string {
    const expr = this.value(variant.schema, { ...site, hint: `${site.hint}_${variant.label}`, definition: undefined });
    return variant.tag ? `g.tag(${expr}, ${literal(variant.tag.property)}, ${literal(variant.tag.value)})` : expr;
  }
}

/** What `contains` asks of an array: at least `min` and at most `max` items matching `schema`. */
function containsPlan(s: JsonSchema): { schema: JsonSchema; min: number; max: number } | undefined {
  const schema = s.contains === true ? {} : s.contains;
  if (!isSchemaObject(schema)) return undefined;
  return { schema, min: nonNegativeInteger(s.minContains) ?? 1, max: nonNegativeInteger(s.maxContains) ?? Infinity };
}

/** The depth parameter and the result are typed in TypeScript (recursive functions need a declared result). */
function functionSource(fn: GeneratorFunction, language: Language): string {
  const ts = language === 'ts';
  const body = fn.lines.map((line) => `  ${ts && line === NEW_OBJECT ? NEW_OBJECT_TS : line}\n`).join('');
  return ts ? `function ${fn.name}(d: number): unknown {\n${body}}\n` : `function ${fn.name}(d) {\n${body}}\n`;
}
