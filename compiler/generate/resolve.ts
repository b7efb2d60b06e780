/** Looks schemas up through `$ref`s and `allOf`s, caching merges so each happens once. */
import type { JsonSchema } from '../ir/types.js';
import type { GenMode } from './api.js';
import { mergeAllOf, needsMerge } from './merge-all-of.js';
import { isAnnotation, isPureRef, isSchemaObject, refName } from './schema.js';

/** Alias chains longer than this are treated as cycles. */
const MAX_ALIAS_HOPS = 32;

export class SchemaResolver {
  /** Keyed by schema, then by the definition it was expanded as ('' for none). */
  private readonly merged = new WeakMap<JsonSchema, Map<string, JsonSchema>>();

  constructor(readonly definitions: Record<string, JsonSchema>) {}

  /**
   * The definition a schema merely names, when it exists: a pure `$ref`, or the documented
   * alias `{allOf: [{$ref}], description}` some descriptions use to annotate a reference.
   */
  target(schema: JsonSchema): string | undefined {
    let ref: unknown = schema;
    const { allOf } = schema;
    if (Array.isArray(allOf) && allOf.length === 1 && Object.keys(schema).every((key) => key === 'allOf' || isAnnotation(key))) {
      ref = allOf[0];
    }
    if (!isSchemaObject(ref) || !isPureRef(ref)) return undefined;
    const name = refName(ref.$ref);
    return name !== undefined && Object.hasOwn(this.definitions, name) ? name : undefined;
  }

  /**
   * `schema` with `allOf` (and a `$ref` carrying constraints, if/then/else, dependent schemas) merged in;
   * other schemas as they are.
   * `self` is the definition being generated, so a member pointing back at it is not re-expanded.
   */
  normalize(schema: JsonSchema, self?: string): JsonSchema {
    if (!needsMerge(schema)) return schema;
    let bySelf = this.merged.get(schema);
    if (!bySelf) this.merged.set(schema, (bySelf = new Map()));
    let merged = bySelf.get(self ?? '');
    if (!merged) {
      merged = mergeAllOf(schema, this.definitions, self === undefined ? [] : [self]);
      bySelf.set(self ?? '', merged);
    }
    return merged;
  }

  /**
   * What a schema looks like once pure `$ref`s are followed and `allOf`s merged
   * (`self`: the definition `schema` is, if it is one).
   */
  view(schema: unknown, self?: string): JsonSchema {
    if (!isSchemaObject(schema)) return {};
    let current = schema;
    for (let hops = 0; hops < MAX_ALIAS_HOPS; hops++) {
      const name = this.target(current);
      if (name === undefined) return this.normalize(current, self);
      current = this.definitions[name]!;
      self = name;
    }
    return {};
  }

  /** readOnly properties are left out of requests, writeOnly ones out of responses. */
  isHidden(property: unknown, mode: GenMode): boolean {
    const flag = mode === 'request' ? 'readOnly' : 'writeOnly';
    return isSchemaObject(property) && (property[flag] === true || this.view(property)[flag] === true);
  }
}
