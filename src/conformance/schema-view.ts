import type { JsonSchema } from '../../compiler/index.js';

const DEFINITIONS = '#/definitions/';

/** An object schema's properties as far as they can be read without evaluating the schema. */
export interface ObjectShape {
  properties: Record<string, JsonSchema>;
  required: string[];
  /** Required by the schema itself or an allOf member (not by a oneOf/anyOf variant): an object without one is certainly invalid. */
  mustHave: string[];
  /** True only when the schema (or an allOf member) says `additionalProperties: false`. */
  closed: boolean;
}

/**
 * Reads IR schemas (`#/definitions/<Name>` refs, allOf/oneOf/anyOf) well enough to pick probe
 * targets. It only proposes: every mutated body is checked against the description's own
 * validator before it is sent as a negative probe, so a wrong guess here costs a probe, never a
 * false finding.
 */
export class SchemaView {
  constructor(private readonly definitions: Record<string, JsonSchema>) {}

  /** Follows `$ref`s to the schema they name. */
  deref(schema: JsonSchema | undefined): JsonSchema {
    let node = schema ?? {};
    for (let depth = 0; depth < 32 && typeof node.$ref === 'string'; depth++) {
      const ref = node.$ref as string;
      node = ref.startsWith(DEFINITIONS) ? (this.definitions[ref.slice(DEFINITIONS.length)] ?? {}) : {};
    }
    return node;
  }

  /**
   * JSON types the schema allows (`integer` stays distinct), without `null`; empty when it does not
   * say. Unless `strict`, a schema with `properties` and no `type` counts as an object.
   */
  types(schema: JsonSchema | undefined, strict = false): string[] {
    const node = this.deref(schema);
    const own = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : [];
    if (own.length > 0) return own.filter((t) => t !== 'null');
    for (const member of asSchemas(node.allOf)) {
      const inner = this.types(member, strict);
      if (inner.length > 0) return inner;
    }
    if (!strict && node.properties !== undefined) return ['object'];
    return [];
  }

  /** Properties of an object schema, merged over allOf and (as candidates) over oneOf/anyOf variants. */
  shape(schema: JsonSchema | undefined, depth = 0): ObjectShape | undefined {
    const node = this.deref(schema);
    if (depth > 8) return undefined;
    const properties: Record<string, JsonSchema> = { ...((node.properties as Record<string, JsonSchema> | undefined) ?? {}) };
    const required = new Set<string>(Array.isArray(node.required) ? (node.required as string[]) : []);
    const mustHave = new Set<string>(required);
    let closed = node.additionalProperties === false;
    let found = node.properties !== undefined || this.types(node).includes('object');
    for (const member of asSchemas(node.allOf)) {
      const inner = this.shape(member, depth + 1);
      if (!inner) continue;
      found = true;
      for (const [k, v] of Object.entries(inner.properties)) properties[k] ??= v;
      for (const r of inner.required) required.add(r);
      for (const r of inner.mustHave) mustHave.add(r);
      closed ||= inner.closed;
    }
    for (const member of [...asSchemas(node.oneOf), ...asSchemas(node.anyOf)]) {
      const inner = this.shape(member, depth + 1);
      if (!inner) continue;
      found = true;
      for (const [k, v] of Object.entries(inner.properties)) properties[k] ??= v;
      for (const r of inner.required) required.add(r);
    }
    if (!found) return undefined;
    return { properties, required: [...required], mustHave: [...mustHave], closed };
  }

  /** Whether `readOnly`/`writeOnly` (or another boolean annotation) is set on the schema or on what it refers to. */
  marked(schema: JsonSchema | undefined, name: string): boolean {
    return schema?.[name] === true || this.deref(schema)[name] === true;
  }

  /** The first of the keywords found on the schema or its allOf members (e.g. minLength of a `$ref` + allOf string). */
  keyword(schema: JsonSchema | undefined, name: string, depth = 0): unknown {
    const node = this.deref(schema);
    if (node[name] !== undefined) return node[name];
    if (depth > 8) return undefined;
    for (const member of asSchemas(node.allOf)) {
      const value = this.keyword(member, name, depth + 1);
      if (value !== undefined) return value;
    }
    return undefined;
  }
}

const asSchemas = (value: unknown): JsonSchema[] => (Array.isArray(value) ? (value as JsonSchema[]).filter((v) => v !== null && typeof v === 'object') : []);

/** The JSON type of a value as a schema would name it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
