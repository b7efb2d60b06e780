/**
 * Which oneOf/anyOf variants to generate. JSON Schema validators ignore `discriminator`, so a
 * oneOf value must fail every other variant by the schemas alone: variants are proven to at build
 * time, or else tried out (union-vetting.ts).
 */
import type { JsonSchema } from '../ir/types.js';
import type { SchemaResolver } from './resolve.js';
import { formatAccepts } from './formats.js';
import {
  explicitTypes, hasConstraints, inferType, isClosed, isNullSchema, isSchemaObject, isUnion, nonNegativeInteger, patternAccepts,
  refName, stringList, typeMatches, withoutKeys,
} from './schema.js';

export interface Variant {
  /** What to generate: the variant with the union's sibling keywords merged in. */
  readonly schema: JsonSchema;
  /** For helper names: the referenced definition or the variant's position. */
  readonly label: string;
  /** Its position in the union's list. */
  readonly member: number;
  /** Discriminator value to stamp on the generated object. */
  readonly tag?: { readonly property: string; readonly value: string };
}

export interface UnionPlan {
  /** One variant (chosen at build time) or several to pick from at random. */
  readonly variants: readonly Variant[];
  /** A null variant exists: used to end recursion past the depth limit. */
  readonly nullable: boolean;
  /** Sampling found no variant whose values exactly one member accepts: the union may admit no value. */
  readonly unsatisfied?: true;
  /**
   * A oneOf whose variants could not be proven to reject each other's values: what to sample,
   * so that only variants whose values exactly one member accepts are generated.
   */
  readonly unproven?: {
    /** The union's members and sibling keywords (when they constrain), as validators see them. */
    readonly members: readonly JsonSchema[];
    readonly base?: JsonSchema;
    /** Per variant, the forms to try, best first. */
    readonly forms: readonly (readonly Variant[])[];
    /** Whether every variant that passes is kept (discriminated unions), or the first alone. */
    readonly all: boolean;
  };
}

interface Discriminator {
  propertyName: string;
  mapping?: Record<string, unknown>;
}

export function asDiscriminator(value: unknown): Discriminator | undefined {
  return isSchemaObject(value) && typeof value.propertyName === 'string' ? (value as unknown as Discriminator) : undefined;
}

/**
 * The discriminator value naming definition `name`: its mapping key, else (OpenAPI's implicit
 * mapping) the name itself.
 */
export function discriminatorValue(discriminator: Discriminator, name: string): string {
  const mapping = isSchemaObject(discriminator.mapping) ? discriminator.mapping : {};
  return Object.keys(mapping).find((key) => refName(mapping[key]) === name) ?? name;
}

/** Whether a (discriminator) property schema accepts `value`, as far as a build-time look can tell. */
export function acceptsTag(property: JsonSchema, value: string): boolean {
  if ('const' in property) return property.const === value;
  if (Array.isArray(property.enum)) return property.enum.includes(value);
  if (isUnion(property)) return false;
  const types = explicitTypes(property);
  if (types && !types.includes('string')) return false;
  const length = [...value].length;
  if (length < (nonNegativeInteger(property.minLength) ?? 0) || length > (nonNegativeInteger(property.maxLength) ?? Infinity)) return false;
  if (typeof property.pattern === 'string' && !patternAccepts(property.pattern, value)) return false;
  return formatAccepts(property.format, value);
}

/**
 * The values of a union whose every variant is a const or enum (an enum spelled as
 * `oneOf: [{const: 1, title}, ...]`), restricted to the declared type; oneOf drops values
 * that more than one variant allows.
 */
export function unionConstants(schema: JsonSchema, resolver: SchemaResolver): unknown[] | undefined {
  const members = (Array.isArray(schema.oneOf) ? schema.oneOf : schema.anyOf) as unknown[];
  const lists: unknown[][] = [];
  for (const member of members) {
    const view = resolver.view(member);
    if ('const' in view) lists.push([view.const]);
    else if (Array.isArray(view.enum)) lists.push(view.enum);
    else return undefined;
  }
  const types = explicitTypes(schema);
  const seen = new Map<string, { value: unknown; count: number }>();
  for (const value of lists.flat()) {
    if (value === null || !typeMatches(value, types)) continue;
    const key = JSON.stringify(value);
    const entry = seen.get(key);
    if (entry) entry.count++;
    else seen.set(key, { value, count: 1 });
  }
  const exact = Array.isArray(schema.oneOf);
  const values = [...seen.values()].filter((entry) => !exact || entry.count === 1).map((entry) => entry.value);
  return values.length > 0 ? values : undefined;
}

export function planUnion(schema: JsonSchema, resolver: SchemaResolver): UnionPlan {
  const keyword = Array.isArray(schema.oneOf) ? 'oneOf' : 'anyOf';
  const members = (schema[keyword] as unknown[]).map((m) => (isSchemaObject(m) ? m : {}));
  const base = withoutKeys(schema, [keyword, 'discriminator']);
  const constrained = hasConstraints(base);
  const discriminator = asDiscriminator(schema.discriminator);

  const nullable = members.some((member) => isNullSchema(resolver.view(member)));
  const variants = members.flatMap((member, index): Variant[] => {
    if (isNullSchema(resolver.view(member))) return [];
    const effective = constrained ? { allOf: [base, member] } : member;
    const name = refName(member.$ref);
    const tag = discriminator && name !== undefined ? tagFor(discriminator, name, effective, resolver) : undefined;
    // A variant that pins the discriminator itself always carries it, optional or not.
    const pinned = discriminator && !tag && declares(resolver.view(effective), discriminator.propertyName);
    return [{
      schema: pinned ? { allOf: [effective, { required: [discriminator.propertyName] }] } : effective,
      label: name ?? `variant${index + 1}`,
      member: index,
      tag,
    }];
  });
  if (variants.length <= 1 || keyword === 'anyOf') return { variants: discriminator ? variants : variants.slice(0, 1), nullable };
  const exclusive = exclusiveVariants(variants, resolver);
  const unproven = {
    members,
    base: constrained ? base : undefined,
    forms: variants.map((variant) => forms(variant, resolver)),
    all: discriminator !== undefined,
  };
  if (discriminator) {
    if (exclusive.length === variants.length) return { variants: exclusive, nullable };
    return { variants: exclusive.length > 0 ? exclusive : variants, nullable, unproven };
  }
  if (exclusive.length > 0) return { variants: [exclusive[0]!], nullable };
  return { variants: [mostDistinctive(variants, resolver)], nullable, unproven };
}

function declares(view: JsonSchema, property: string): boolean {
  return isSchemaObject(view.properties) && Object.hasOwn(view.properties, property);
}

/**
 * A variant as generated, then reduced to its required properties (fewer to overlap with other
 * variants), then with every property required (so that the ones telling it apart are there at
 * any depth).
 */
function forms(variant: Variant, resolver: SchemaResolver): Variant[] {
  const view = resolver.view(variant.schema);
  if (inferType(view) !== 'object' || !isSchemaObject(view.properties)) return [variant];
  const every = { ...variant, schema: { ...view, required: [...new Set([...stringList(view.required), ...Object.keys(view.properties)])] } };
  return [variant, requiredOnly(variant, view), every];
}

function tagFor(discriminator: Discriminator, name: string, effective: JsonSchema, resolver: SchemaResolver) {
  const property = discriminator.propertyName;
  const view = resolver.view(effective);
  // A nested union tags its own variants; a closed object without the property cannot take one.
  if (isUnion(view) || inferType(view) !== 'object') return undefined;
  const properties = isSchemaObject(view.properties) ? view.properties : {};
  const value = discriminatorValue(discriminator, name);
  if (!Object.hasOwn(properties, property)) return isClosed(view) ? undefined : { property, value };
  // A variant pinning other values itself (enum/const) generates one of those.
  return acceptsTag(resolver.view(properties[property]), value) ? { property, value } : undefined;
}

interface Facts {
  view: JsonSchema;
  type: string;
  properties: JsonSchema;
  required: string[];
  tag?: Variant['tag'];
  /** Property keys the generated objects can contain. */
  generated: ReadonlySet<string>;
}

function facts(variant: Variant, resolver: SchemaResolver, requiredOnly = false): Facts {
  const view = resolver.view(variant.schema);
  const properties = isSchemaObject(view.properties) ? view.properties : {};
  const required = stringList(view.required);
  const type = valueType(view);
  const generated = new Set(requiredOnly ? required : Object.keys(properties));
  if (variant.tag) generated.add(variant.tag.property);
  return { view, type, properties, required, tag: variant.tag, generated };
}

/** The variant reduced to its required properties (and tag): optional ones cannot be generated. */
function requiredOnly(variant: Variant, view: JsonSchema): Variant {
  const properties = isSchemaObject(view.properties) ? view.properties : {};
  const keep = new Set([...stringList(view.required), ...(variant.tag ? [variant.tag.property] : [])]);
  const reduced = Object.fromEntries(Object.entries(properties).filter(([key]) => keep.has(key)));
  return { ...variant, schema: { ...view, properties: reduced } };
}

/**
 * Variants whose values are sure to fail every other variant. One that overlaps another only
 * through optional properties (e.g. `{method}` vs `{method, email}`) qualifies without them.
 */
function exclusiveVariants(variants: readonly Variant[], resolver: SchemaResolver): Variant[] {
  const schemas = variants.map((v) => facts(v, resolver));
  const exclusive: Variant[] = [];
  variants.forEach((variant, i) => {
    const failsOthers = (mine: Facts) => schemas.every((other, j) => i === j || fails(mine, other, resolver));
    if (failsOthers(schemas[i]!)) exclusive.push(variant);
    else if (failsOthers(facts(variant, resolver, true))) exclusive.push(requiredOnly(variant, schemas[i]!.view));
  });
  return exclusive;
}

/** The values a property can take (a const or enum, or our own tag when `generating`), if pinned. */
function pinned(f: Facts, key: string, resolver: SchemaResolver, generating: boolean): unknown[] | undefined {
  if (generating && f.tag?.property === key) return [f.tag.value];
  if (!Object.hasOwn(f.properties, key)) return undefined;
  const view = resolver.view(f.properties[key]);
  if ('const' in view) return [view.const];
  return Array.isArray(view.enum) ? view.enum : undefined;
}

function disjoint(a: unknown[], b: unknown[]): boolean {
  return !a.some((x) => b.some((y) => JSON.stringify(x) === JSON.stringify(y)));
}

/** Whether a value generated as `type` can be of one of `types` (integers are numbers; 'any' is unknown). */
function typeOverlaps(type: string, types: readonly string[] | undefined): boolean {
  if (!types || type === 'any' || types.includes(type)) return true;
  return (type === 'integer' && types.includes('number')) || (type === 'number' && types.includes('integer'));
}

/** Whether every value generated from `v` is rejected by `w` (conservative: false when unsure). */
function fails(v: Facts, w: Facts, resolver: SchemaResolver): boolean {
  if (!typeOverlaps(v.type, explicitTypes(w.view))) return true;
  const vValues = 'const' in v.view ? [v.view.const] : Array.isArray(v.view.enum) ? v.view.enum : undefined;
  const wValues = 'const' in w.view ? [w.view.const] : Array.isArray(w.view.enum) ? w.view.enum : undefined;
  if (vValues && wValues && disjoint(vValues, wValues)) return true;
  if (v.type !== 'object' || Object.keys(v.properties).length === 0) return false;

  if (w.required.some((key) => !v.generated.has(key))) return true;
  const always = [...new Set([...v.required, ...(v.tag ? [v.tag.property] : [])])];
  if (isClosed(w.view) && !isSchemaObject(w.view.patternProperties)) {
    if (always.some((key) => !Object.hasOwn(w.properties, key))) return true;
  }
  return always.some((key) => {
    const mine = pinned(v, key, resolver, true);
    const theirs = pinned(w, key, resolver, false);
    if (mine !== undefined && theirs !== undefined && disjoint(mine, theirs)) return true;
    if (!Object.hasOwn(w.properties, key)) return false;
    const type = v.tag?.property === key ? 'string' : valueType(resolver.view(v.properties[key]));
    return !typeOverlaps(type, explicitTypes(resolver.view(w.properties[key])));
  });
}

/** The JSON type generated for `view`; a nested union's depends on the variant chosen: unknown. */
function valueType(view: JsonSchema): string {
  return isUnion(view) && !explicitTypes(view) ? 'any' : inferType(view);
}

/** Fallback: the object variant with the most required properties no other variant mentions. */
function mostDistinctive(variants: readonly Variant[], resolver: SchemaResolver): Variant {
  const all = variants.map((v) => facts(v, resolver));
  let best = 0;
  let bestScore = -1;
  all.forEach((f, i) => {
    const score = f.required.filter((key) =>
      all.every((other, j) => i === j || (!other.required.includes(key) && !Object.hasOwn(other.properties, key))),
    ).length;
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return variants[best]!;
}
