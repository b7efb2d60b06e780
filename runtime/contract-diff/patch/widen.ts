import { isDeepStrictEqual } from 'node:util';
import { isObject, type Json, type WorkingDocument } from './document.js';
import { hasFormat, matchesPattern } from './format-check.js';
import { inferSchema, typeOf, type Dialect } from './infer.js';

/**
 * Widens the schema at a pointer until it accepts an observed value, writing each change to the
 * working document where the schema lives (the shared component a `$ref` names). Every keyword the
 * generated validators check and traffic can break is handled: types, nullability, enum and
 * const, bounds, lengths, patterns, formats, required and undeclared properties, items, and the
 * branches of allOf, oneOf and anyOf; `notes` gets what cannot be reached (a `$ref` into another file).
 */
export class SchemaWidener {
  constructor(
    private readonly doc: WorkingDocument,
    private readonly dialect: Dialect,
    private readonly notes: string[],
  ) {}

  widen(at: string, value: unknown, known: ReadonlySet<string> = new Set(), retyped = false): void {
    const target = this.doc.resolve(at);
    if (target === undefined) {
      this.notes.push(`${at}: its $ref leads into another file; correct that file by hand`);
      return;
    }
    const schema = this.doc.at(target);
    if (schema === false) {
      this.doc.write({ op: 'replace', path: target, value: inferSchema(value, this.dialect) });
      return;
    }
    if (!isObject(schema)) return;
    const declared = new Set([...known, ...declaredProperties(this.doc, target)]);
    if (Array.isArray(schema.allOf)) schema.allOf.forEach((_, i) => this.widen(`${target}/allOf/${i}`, value, declared));
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(schema[keyword])) this.branches(`${target}/${keyword}`, schema[keyword] as unknown[], value, declared);
    }
    if (!this.acceptsType(schema, value)) {
      this.widenType(target, schema, value);
      // the schema takes the type now: its other keywords (a format, bounds) are held against the value next
      if (!retyped) this.widen(at, value, known, true);
      return;
    }
    this.values(target, schema, value);
    if (Array.isArray(value)) this.array(target, schema, value);
    else if (isObject(value)) this.object(target, schema, value, declared);
  }

  /** A value no branch of oneOf/anyOf takes widens the branch of its type, or becomes a branch of its own. */
  private branches(at: string, branches: unknown[], value: unknown, known: ReadonlySet<string>): void {
    const schemas = branches.map((_, i) => this.doc.at(this.doc.resolve(`${at}/${i}`) ?? `${at}/${i}`));
    if (schemas.some((schema) => isObject(schema) && this.accepts(schema, value))) return;
    const sameType = schemas.findIndex((schema) => isObject(schema) && schema.type !== undefined && this.acceptsType(schema, value));
    if (sameType !== -1) this.widen(`${at}/${sameType}`, value, known);
    else this.doc.write({ op: 'add', path: `${at}/-`, value: inferSchema(value, this.dialect) });
  }

  private acceptsType(schema: Json, value: unknown): boolean {
    const type = typeOf(value);
    if (type === 'null' && (schema.nullable === true || schema['x-nullable'] === true)) return true;
    if (schema.type === undefined) return type !== 'null' || this.dialect === '3.1' || schema.nullable !== false;
    const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
    return types.includes(type) || (type === 'integer' && types.includes('number'));
  }

  /** A quick look, enough to tell which branch a value belongs to: its type and, for objects, no missing required property. */
  private accepts(schema: Json, value: unknown): boolean {
    if (!this.acceptsType(schema, value)) return false;
    if (Array.isArray(schema.enum) && !schema.enum.some((v) => isDeepStrictEqual(v, value))) return false;
    if (isObject(value) && Array.isArray(schema.required)) return schema.required.every((name) => typeof name !== 'string' || name in value);
    return true;
  }

  private widenType(target: string, schema: Json, value: unknown): void {
    const type = typeOf(value);
    const nullable = this.dialect === '2.0' ? 'x-nullable' : 'nullable';
    if (type === 'null' && this.dialect !== '3.1') {
      this.doc.write({ op: schema[nullable] === undefined ? 'add' : 'replace', path: `${target}/${nullable}`, value: true });
      return;
    }
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (type === 'number' && types.length === 1 && types[0] === 'integer') {
      this.doc.write({ op: 'replace', path: `${target}/type`, value: 'number' });
      return;
    }
    if (this.dialect === '3.1') {
      this.doc.write({ op: 'replace', path: `${target}/type`, value: [...types, type] });
      return;
    }
    if (this.dialect === '2.0') {
      // Swagger 2.0 has no way to say "this or that": the type goes, the schema then takes both
      this.doc.write({ op: 'remove', path: `${target}/type` });
      return;
    }
    const { description, ...rest } = schema;
    const widened: Json = { ...(description === undefined ? {} : { description }), anyOf: [rest, inferSchema(value, this.dialect)] };
    this.doc.write({ op: 'replace', path: target, value: widened });
  }

  /** enum, const and the bounds of strings and numbers. */
  private values(target: string, schema: Json, value: unknown): void {
    if (Array.isArray(schema.enum) && !schema.enum.some((v) => isDeepStrictEqual(v, value))) this.doc.write({ op: 'add', path: `${target}/enum/-`, value });
    if ('const' in schema && !isDeepStrictEqual(schema.const, value)) {
      this.doc.write({ op: 'remove', path: `${target}/const` });
      this.doc.write({ op: 'add', path: `${target}/enum`, value: [schema.const, value] });
    }
    if (typeof value === 'string') {
      const length = [...value].length;
      this.bound(target, schema, 'minLength', length, (limit) => length >= limit);
      this.bound(target, schema, 'maxLength', length, (limit) => length <= limit);
      if (typeof schema.pattern === 'string' && !matchesPattern(value, schema.pattern)) this.doc.write({ op: 'remove', path: `${target}/pattern` });
      if (typeof schema.format === 'string' && !hasFormat(value, schema.format)) this.doc.write({ op: 'remove', path: `${target}/format` });
    }
    if (typeof value === 'number') {
      this.bound(target, schema, 'minimum', value, (limit) => value >= limit);
      this.bound(target, schema, 'maximum', value, (limit) => value <= limit);
      for (const [keyword, holds] of [
        ['exclusiveMinimum', (limit: number) => value > limit],
        ['exclusiveMaximum', (limit: number) => value < limit],
      ] as const) {
        const limit = schema[keyword];
        const bound = keyword === 'exclusiveMinimum' ? schema.minimum : schema.maximum;
        const broken = typeof limit === 'number' ? !holds(limit) : limit === true && value === bound;
        if (broken) this.doc.write({ op: 'remove', path: `${target}/${keyword}` });
      }
      if (typeof schema.multipleOf === 'number' && !Number.isInteger(value / schema.multipleOf)) this.doc.write({ op: 'remove', path: `${target}/multipleOf` });
      if (typeof schema.format === 'string' && !hasFormat(value, schema.format)) this.doc.write({ op: 'remove', path: `${target}/format` });
    }
  }

  /** A bound the value breaks moves to the value. */
  private bound(target: string, schema: Json, keyword: string, value: number, holds: (limit: number) => boolean): void {
    const limit = schema[keyword];
    if (typeof limit === 'number' && !holds(limit)) this.doc.write({ op: 'replace', path: `${target}/${keyword}`, value });
  }

  private array(target: string, schema: Json, value: unknown[]): void {
    this.bound(target, schema, 'minItems', value.length, (limit) => value.length >= limit);
    this.bound(target, schema, 'maxItems', value.length, (limit) => value.length <= limit);
    if (schema.uniqueItems === true && new Set(value.map((item) => JSON.stringify(item))).size !== value.length) this.doc.write({ op: 'remove', path: `${target}/uniqueItems` });
    if (isObject(schema.items) || schema.items === false) for (const item of value) this.widen(`${target}/items`, item);
  }

  private object(target: string, schema: Json, value: Json, known: ReadonlySet<string>): void {
    const names = Object.keys(value);
    this.bound(target, schema, 'minProperties', names.length, (limit) => names.length >= limit);
    this.bound(target, schema, 'maxProperties', names.length, (limit) => names.length <= limit);
    if (Array.isArray(schema.required)) {
      const missing = schema.required.map((name, i) => [name, i] as const).filter(([name]) => typeof name === 'string' && !(name in value));
      // an empty `required` is not valid in OpenAPI 3.0: the keyword goes when nothing stays required
      if (missing.length === schema.required.length && missing.length > 0) this.doc.write({ op: 'remove', path: `${target}/required` });
      else for (const [, i] of missing.reverse()) this.doc.write({ op: 'remove', path: `${target}/required/${i}` });
    }
    const properties = isObject(schema.properties) ? schema.properties : undefined;
    const closed = schema.additionalProperties === false || schema.unevaluatedProperties === false;
    for (const name of names) {
      const escaped = name.replace(/~/g, '~0').replace(/\//g, '~1');
      if (properties !== undefined && Object.hasOwn(properties, name)) this.widen(`${target}/properties/${escaped}`, value[name]);
      else if (known.has(name)) continue;
      else if (closed) {
        if (properties === undefined) this.doc.write({ op: 'add', path: `${target}/properties`, value: {} });
        this.doc.write({ op: 'add', path: `${target}/properties/${escaped}`, value: inferSchema(value[name], this.dialect) });
      } else if (isObject(schema.additionalProperties)) this.widen(`${target}/additionalProperties`, value[name]);
    }
  }
}

/** The property names a schema declares, its allOf branches' included: a sibling branch's property is not undeclared. */
function declaredProperties(doc: WorkingDocument, target: string, depth = 0): string[] {
  const schema = doc.at(target);
  if (!isObject(schema) || depth > 8) return [];
  const own = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const branches = Array.isArray(schema.allOf)
    ? schema.allOf.flatMap((_, i) => {
        const branch = doc.resolve(`${target}/allOf/${i}`);
        return branch === undefined ? [] : declaredProperties(doc, branch, depth + 1);
      })
    : [];
  return [...own, ...branches];
}
