import type { ConditionSpec } from '../contract/index.js';
import { PatternError, compileLinear } from './linear-regex.js';
import { JsonPathLimitError, compileJsonPath, type JsonPath } from './json-path.js';
import { compileRouteCondition } from './route-condition.js';

/**
 * The one condition dialect: what a header, a query parameter or a value in a JSON body at a
 * JSONPath must be, wherever requests are selected (custom routes, runtime mocks, override rules,
 * chaos request matchers). Written as
 *
 * - `{equals: <JSON value>}`: the value is equal (a string equals a number or boolean with the
 *   same text, since headers and query values are always text; objects and arrays compare deeply);
 * - `{matches: "<RE2 pattern>"}`: the whole value matches the pattern, in linear time (inline
 *   flags such as `(?i)`; a number or boolean matches by its text);
 * - `{present: true}` / `{present: false}`: the value is there / is not;
 * - a number, boolean or null: `{equals: …}`;
 * - a string: what the feature always meant by one (its shorthand): the exact value (override
 *   rules, chaos), the exact value or `/pattern/flags` matching any part (custom routes), or a
 *   pattern the whole value matches (runtime mocks).
 *
 * A JSONPath condition is a map entry from an RFC 9535 path to such a condition: it holds when a
 * value the path selects in the JSON body satisfies it (`{present: false}`: when the path selects
 * nothing). See json-path.ts for the bounds.
 */
export type { ConditionSpec };

/** What a bare string means where it is written. */
export type Shorthand = 'exact' | 'route' | 'regex';

export interface Condition {
  /** `{present: false}`: holds only where there is no value. */
  readonly absent: boolean;
  /** Hot path: whether a value that is there satisfies the condition (false for `absent`). */
  test(value: unknown): boolean;
}

export interface JsonPathCondition {
  path: JsonPath;
  condition: Condition;
}

const FORMS = '{equals: <value>}, {matches: "<regex>"}, {present: true|false}, or a plain value';

/** Throws PatternError, in words that fit after "<field>: ", for a malformed condition or pattern. */
export function compileCondition(spec: unknown, shorthand: Shorthand): Condition {
  if (typeof spec === 'string') {
    if (shorthand === 'exact') return equalTo(spec);
    if (shorthand === 'route') {
      const matcher = describing(spec, () => compileRouteCondition(spec));
      return { absent: false, test: (value) => matcher(text(value)) };
    }
    return matching(spec);
  }
  if (spec === null || typeof spec === 'number' || typeof spec === 'boolean') return equalTo(spec);
  if (typeof spec !== 'object' || Array.isArray(spec)) throw new PatternError(`must be ${FORMS} (got ${show(spec)})`);
  const keys = Object.keys(spec);
  if (keys.length !== 1 || !['equals', 'matches', 'present'].includes(keys[0])) {
    throw new PatternError(`must be exactly one of ${FORMS} (got ${show(spec)}); to compare with an object, write {equals: {...}}`);
  }
  const given = spec as Record<string, unknown>;
  if ('equals' in given) return equalTo(given.equals);
  if ('matches' in given) {
    if (typeof given.matches !== 'string') throw new PatternError(`matches must be a pattern string (got ${show(given.matches)})`);
    return matching(given.matches);
  }
  if (typeof given.present !== 'boolean') throw new PatternError(`present must be true or false (got ${show(given.present)})`);
  return given.present ? { absent: false, test: () => true } : { absent: true, test: () => false };
}

/** Hot path: whether the condition holds for a value, `undefined` when there is none. */
export function holds(condition: Condition, value: unknown): boolean {
  return value === undefined ? condition.absent : condition.test(value);
}

/** Hot path: a repeated value (a query parameter given twice) satisfies it when any of its values does. */
export function holdsForAny(condition: Condition, values: readonly unknown[] | undefined): boolean {
  if (values === undefined || values.length === 0) return condition.absent;
  for (const value of values) if (condition.test(value)) return true;
  return false;
}

/**
 * A map of JSONPaths to conditions, compiled once. Throws PatternError naming the entry as
 * `<where>["<path>"]` and what is wrong with it.
 */
export function compileJsonPathConditions(map: unknown, shorthand: Shorthand, where: string): JsonPathCondition[] {
  if (map === undefined) return [];
  if (map === null || typeof map !== 'object' || Array.isArray(map)) {
    throw new PatternError(`${where} must map JSONPaths to conditions, e.g. {"$.user.role": "admin"} (got ${show(map)})`);
  }
  return Object.entries(map).map(([source, spec]) => {
    const at = `${where}[${show(source)}]`;
    let path: JsonPath;
    try {
      path = compileJsonPath(source);
    } catch (e) {
      if (e instanceof PatternError) throw new PatternError(`${at}: the JSONPath ${e.message}`);
      throw e;
    }
    try {
      return { path, condition: compileCondition(spec, shorthand) };
    } catch (e) {
      if (e instanceof PatternError) throw new PatternError(`${at}: ${e.message}`);
      throw e;
    }
  });
}

/**
 * Hot path: whether the JSON body satisfies a JSONPath condition; `document` is undefined when the
 * request has no JSON body (nothing is selected then). An evaluation stopped at the bound holds
 * for nothing, `{present: false}` included: the condition could not be decided.
 */
export function jsonPathHolds({ path, condition }: JsonPathCondition, document: unknown): boolean {
  if (document === undefined) return condition.absent;
  try {
    return condition.absent ? !path.some(document, () => true) : path.some(document, (value) => condition.test(value));
  } catch (e) {
    if (e instanceof JsonPathLimitError) return false;
    throw e;
  }
}

/**
 * The first value a path selects in a JSON value, or undefined when it selects none or the
 * evaluation reaches the bound (for extraction: state machines' resource ids, template values).
 */
export function firstValue(path: JsonPath, document: unknown): unknown {
  if (document === undefined) return undefined;
  let found: unknown;
  try {
    path.some(document, (value) => {
      found = value;
      return true;
    });
  } catch (e) {
    if (e instanceof JsonPathLimitError) return undefined;
    throw e;
  }
  return found;
}

function equalTo(expected: unknown): Condition {
  return { absent: false, test: (value) => jsonEquals(value, expected) };
}

/** Runs `compile`, naming the pattern in the PatternError it throws. */
function describing<T>(source: string, compile: () => T): T {
  try {
    return compile();
  } catch (e) {
    if (e instanceof PatternError) throw new PatternError(`the pattern ${show(source)} ${e.message}`);
    throw e;
  }
}

function matching(source: string): Condition {
  const pattern = describing(source, () => compileLinear(source, { whole: true }));
  return {
    absent: false,
    test: (value) => {
      const t = text(value);
      return t !== undefined && pattern.test(t);
    },
  };
}

/** A scalar as text (what a pattern reads): strings as they are, numbers and booleans as JSON writes them. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** JSON equality; a string equals a number or boolean with the same text. */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a !== 'object' || typeof b !== 'object') {
    if (typeof a === 'object' || typeof b === 'object') return false;
    return (typeof a === 'string' || typeof b === 'string') && text(a) === text(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEquals(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && jsonEquals(left[key], right[key]));
}

function show(value: unknown): string {
  const shown = JSON.stringify(value) ?? String(value);
  return shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
}
