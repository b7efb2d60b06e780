import type { JsonSchema } from '../ir/types.js';
import type { GenMode } from './api.js';
import { OPTIONAL_DEPTH, type EmitContext, type Site } from './emit-context.js';
import { NEW_OBJECT } from './generated-code.js';
import { planKeys } from './object-keys.js';
import {
  explicitTypes, extraProperties, firstPatternProperty, hasConstraints, inferType, isClosed, isFalseSchema,
  isSchemaObject, isUnion, nonNegativeInteger, shapeKey, stringList, typeMatches,
} from './schema.js';
import { assignment, below, choose, deeper, depthText, literal, PARAMETER } from './source.js';
import { acceptsTag, asDiscriminator, discriminatorValue, unionConstants } from './unions.js';

/** How deep required properties are followed to find that a schema admits no value. */
const NO_VALUE_DEPTH = 8;
/** Records get 1..this many entries. */
const RECORD_ENTRIES = 2;

/**
 * Object generators: declared properties (optional ones below OPTIONAL_DEPTH, those no value
 * satisfies left out), a definition's own discriminator value, minProperties padding, and records
 * of undeclared entries under keys propertyNames and patternProperties accept.
 */
export class ObjectEmitter {
  /** Per mode, schemas (as viewed) known to admit no generated value, or not. */
  private readonly noValue: Record<GenMode, WeakMap<JsonSchema, boolean>> = { response: new WeakMap(), request: new WeakMap() };
  /** Optional properties left out because their schema admits no value, for the build's warnings. */
  private readonly omitted = new Set<string>();

  constructor(private readonly cx: EmitContext) {}

  leftOut(): string[] {
    return [...this.omitted];
  }

  objectFunction(s: JsonSchema, site: Site): string {
    const key = JSON.stringify(['object', this.cx.modeKey(s, site.mode), site.unique, shapeKey(s)]);
    return this.cx.code.helperFunction(key, site.hint, () => this.objectBody(s, { ...site, depth: PARAMETER, definition: undefined }));
  }

  objectBody(s: JsonSchema, site: Site): string[] {
    const properties = isSchemaObject(s.properties) ? s.properties : {};
    const tag = this.ownTag(s, properties, site.definition);
    const required = new Set(stringList(s.required));
    // An optional property no generated value satisfies is left out, so the object still matches its schema.
    const noValue = (key: string): boolean => {
      if (required.has(key) || key === tag?.property || !this.admitsNoValue(properties[key], site.mode, 0)) return false;
      this.omitted.add(`the optional property ${JSON.stringify(key)} of ${site.definition ?? site.hint} is left out of generated ${site.mode}s: the generator finds no value its schema accepts`);
      return true;
    };
    const plan = planKeys(s, (key) => this.cx.resolver.isHidden(properties[key], site.mode) || noValue(key), tag?.property);
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
      const value = tag?.property === key ? literal(tag.value) : this.cx.value(schema, child(key));
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
      lines.push(assignment('o', key, this.cx.value(extraSchema, child(key))));
      added++;
    }
    lines.push('return o;');
    return lines;
  }

  /**
   * Whether no value the generator makes satisfies `schema`, from what the build knows anyway: a
   * false schema, a const or enum with no value of the declared type, a oneOf whose sampled variants
   * never satisfy exactly one member, a union beside `additionalProperties: false` and no properties
   * (only `{}` passes that, and the union refuses it: Jira's JqlQueryClause, WorkflowCondition,
   * CustomFieldContextDefaultValue), a list of such items (generated lists have items), or an
   * object requiring such a property.
   */
  private admitsNoValue(schema: unknown, mode: GenMode, depth: number): boolean {
    if (isFalseSchema(schema)) return true;
    if (!isSchemaObject(schema) || depth > NO_VALUE_DEPTH) return false;
    const resolver = this.cx.resolver;
    const view = resolver.view(schema);
    const known = this.noValue[mode].get(view);
    if (known !== undefined) return known;
    let none = isFalseSchema(view);
    const types = explicitTypes(view);
    if ('const' in view) none = !typeMatches(view.const, types);
    else if (Array.isArray(view.enum) && view.enum.length > 0) none = !view.enum.some((value) => typeMatches(value, types));
    else if (isUnion(view)) {
      none = (onlyEmptyObject(view) && !this.cx.accepts(view, mode, {})) || (!unionConstants(view, resolver) && this.cx.unionPlan(view, mode).unsatisfied === true);
    }
    else if (inferType(view) === 'array' && isSchemaObject(view.items)) none = nonNegativeInteger(view.maxItems) !== 0 && this.admitsNoValue(view.items, mode, depth + 1);
    else if (inferType(view) === 'object' && isSchemaObject(view.properties)) {
      const properties = view.properties;
      none = stringList(view.required).some(
        (key) => Object.hasOwn(properties, key) && !resolver.isHidden(properties[key], mode) && this.admitsNoValue(properties[key], mode, depth + 1),
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
    if (!acceptsTag(this.cx.resolver.view(properties[discriminator.propertyName]), value)) return undefined;
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
    return this.cx.itemFunction(isSchemaObject(values) && hasConstraints(values) ? values : {}, site, 'value');
  }

  /** A generator of keys when propertyNames or patternProperties constrain them (else the runtime's words do). */
  private keyFunction(s: JsonSchema, site: Site): string | undefined {
    const pattern = firstPatternProperty(s)?.[0];
    const names = isSchemaObject(s.propertyNames) ? [s.propertyNames] : [];
    if (pattern === undefined && names.length === 0) return undefined;
    const schema = { allOf: [{ type: 'string' }, ...names, ...(pattern === undefined ? [] : [{ pattern }])] };
    return this.cx.itemFunction(schema, { ...site, name: undefined }, 'key');
  }
}

/** An object schema no key but none passes: closed, without properties or pattern properties of its own. */
function onlyEmptyObject(s: JsonSchema): boolean {
  const declared = (value: unknown): boolean => isSchemaObject(value) && Object.keys(value).length > 0;
  return inferType(s) === 'object' && isClosed(s) && !declared(s.properties) && !declared(s.patternProperties);
}
