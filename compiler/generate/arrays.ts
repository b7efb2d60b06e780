import type { JsonSchema } from '../ir/types.js';
import { choices } from './choices.js';
import { OPTIONAL_DEPTH, type EmitContext, type Site } from './emit-context.js';
import { finiteNumber, hasConstraints, inferType, isFalseSchema, isSchemaObject, nonNegativeInteger } from './schema.js';
import { below, choose, deeper, depthText, literal } from './source.js';

/** Unbounded arrays get 1..this many items. */
const ARRAY_ITEMS = 3;

/**
 * An array value: tuples item by item; lists of 1..ARRAY_ITEMS within minItems/maxItems, unique
 * ones sampled from a finite domain when there is one, `contains` items first.
 */
export function arrayValue(cx: EmitContext, s: JsonSchema, site: Site): string {
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
      cx.value(i < items.length ? items[i] : extra, { ...site, depth: inner, hint: `${site.hint}_${i}` }),
    );
    return `[${elements.join(', ')}]`;
  }
  const unique = s.uniqueItems === true;
  const itemView = cx.resolver.view(items);
  if (unique) max = Math.min(max, domainSize(cx, itemView));
  const contains = containsPlan(s);
  // Any item may match `contains`: keeping to maxContains items keeps the count in bounds.
  if (contains) max = Math.min(max, contains.max);
  const least = Math.max(min, contains?.min ?? 0);
  const low = Math.max(least, Math.min(1, max));
  const high = Math.min(max, Math.max(low, ARRAY_ITEMS));
  let make: (from: number, to: number) => string;
  const values = unique && !contains ? choices(itemView, cx.resolver) : undefined;
  const array = (fn: string, from: number, to: number, first = '') =>
    `g.${unique ? 'uniqueArray' : 'array'}(${fn}, ${depthText(inner)}, ${from}, ${to}${first && `, ${first}`})`;
  if (values) {
    const constant = cx.code.constant(JSON.stringify(['values', values]), 'values', site.hint, literal(values));
    make = (from, to) => `g.sample(${constant}, ${from}, ${to})`;
  } else {
    const fn = cx.itemFunction(items, { ...site, unique }, 'item');
    make = (from, to) => array(fn, from, to);
  }
  if (contains && contains.min > 0) {
    // minContains items made to match `contains` (and `items`) come first, then the rest.
    const matching = isSchemaObject(items) && hasConstraints(items) ? { allOf: [items, contains.schema] } : contains.schema;
    const first = array(cx.itemFunction(matching, { ...site, unique }, 'contains'), contains.min, contains.min);
    const fn = cx.itemFunction(items, { ...site, unique }, 'item');
    make = (from, to) => (to <= contains.min ? first : array(fn, from, to, first));
  }
  return choose(below(site.depth, OPTIONAL_DEPTH), make(low, high), least === 0 ? '[]' : make(least, least));
}

/** How many distinct values an item schema allows (Infinity when plenty). */
function domainSize(cx: EmitContext, view: JsonSchema): number {
  const finite = choices(view, cx.resolver);
  if (finite) return finite.length;
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

/** What `contains` asks of an array: at least `min` and at most `max` items matching `schema`. */
function containsPlan(s: JsonSchema): { schema: JsonSchema; min: number; max: number } | undefined {
  const schema = s.contains === true ? {} : s.contains;
  if (!isSchemaObject(schema)) return undefined;
  return { schema, min: nonNegativeInteger(s.minContains) ?? 1, max: nonNegativeInteger(s.maxContains) ?? Infinity };
}
