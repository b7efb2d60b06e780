/** Which properties a generated object gets, decided at build time from its schema. */
import type { JsonSchema } from '../ir/types.js';
import { isClosed, isSchemaObject, nonNegativeInteger, stringList } from './schema.js';

export interface KeyPlan {
  /**
   * Properties to generate: declared ones in declaration order, then undeclared ones (required, or
   * brought along by a dependency; their values come from additionalProperties). `always` ones are
   * generated even past the optional depth.
   */
  readonly keys: ReadonlyArray<{ readonly key: string; readonly always: boolean }>;
  /** Entries to add beyond these for minProperties (0 when the object is closed). */
  readonly padding: number;
}

/**
 * `hidden` tells the declared properties left out in this mode (readOnly in requests, writeOnly
 * in responses); `tag` names a property every value carries (a discriminator).
 */
export function planKeys(s: JsonSchema, hidden: (key: string) => boolean, tag?: string): KeyPlan {
  const properties = isSchemaObject(s.properties) ? s.properties : {};
  const declared = (key: string) => Object.hasOwn(properties, key);
  const left = (key: string) => declared(key) && hidden(key);
  const dependents = dependentProperties(s);
  const required = closure([...stringList(s.required), ...(tag ? [tag] : [])], dependents);
  const requiredCount = [...required].filter((key) => !left(key)).length;
  const maxProperties = nonNegativeInteger(s.maxProperties);
  const minProperties = nonNegativeInteger(s.minProperties) ?? 0;
  let optional = Object.keys(properties).filter((key) => !left(key) && !required.has(key));
  if (maxProperties !== undefined) optional = optional.slice(0, Math.max(0, maxProperties - requiredCount));
  // minProperties turns the first optional properties (and what they bring along) into required ones.
  const always = closure(optional.slice(0, Math.max(0, minProperties - requiredCount)), dependents);
  // An optional property comes with its dependents, or not at all.
  const open = !isClosed(s);
  let kept = closure(optional, dependents, (key) => (declared(key) ? !left(key) : open));
  for (let changed = true; changed; ) {
    const present = (key: string) => kept.has(key) || required.has(key) || always.has(key);
    const next = new Set([...kept].filter((key) => (dependents.get(key) ?? []).every(present)));
    changed = next.size < kept.size;
    kept = next;
  }
  const generated = new Set([...required, ...always, ...kept].filter((key) => !left(key)));
  const keys = [...Object.keys(properties).filter((key) => generated.has(key)), ...[...generated].filter((key) => !declared(key))]
    .map((key) => ({ key, always: required.has(key) || always.has(key) }));
  return { keys, padding: open ? Math.max(0, minProperties - keys.length) : 0 };
}

/** `dependencies` (dependentRequired) as lists: a present key brings these along. */
function dependentProperties(s: JsonSchema): Map<string, string[]> {
  const map = new Map<string, string[]>();
  if (!isSchemaObject(s.dependencies)) return map;
  for (const [key, value] of Object.entries(s.dependencies)) if (Array.isArray(value)) map.set(key, stringList(value));
  return map;
}

/** `keys` and, transitively, the dependents they bring along that are `allowed`. */
function closure(keys: readonly string[], dependents: Map<string, string[]>, allowed = (_key: string) => true): Set<string> {
  const out = new Set(keys);
  for (const key of out) for (const dependent of dependents.get(key) ?? []) if (allowed(dependent)) out.add(dependent);
  return out;
}
