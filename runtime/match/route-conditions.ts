import { compileRouteCondition, type ValueMatcher } from '../../common/patterns/index.js';

/** What mock.yaml's custom routes match on, as the build carries it. */
export interface RouteMatchSpec {
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A custom route's conditions compiled once: values written `/regex/` are linear-time patterns, others exact. */
export interface RouteConditions {
  query: Array<[string, ValueMatcher]>;
  headers: Array<[string, ValueMatcher]>;
  body: unknown;
  needsBody: boolean;
}

export function compileRouteConditions(match: RouteMatchSpec): RouteConditions {
  const compile = (map: Record<string, string> | undefined): Array<[string, ValueMatcher]> =>
    Object.entries(map ?? {}).map(([name, expected]) => [name, compileRouteCondition(expected)]);
  return { query: compile(match.query), headers: compile(match.headers), body: match.body, needsBody: match.body !== undefined };
}

export function conditionsHold(c: RouteConditions, query: ReadonlyMap<string, string[]>, headers: Record<string, string>, body: () => unknown): boolean {
  for (const [name, test] of c.query) if (!test(query.get(name)?.[0])) return false;
  for (const [name, test] of c.headers) if (!test(headers[name])) return false;
  return !c.needsBody || containsPartial(body(), c.body);
}

/** Every member of `expected` is present in `actual` with an equal (recursively partial) value. */
export function containsPartial(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return actual === expected || (typeof actual !== 'object' && String(actual) === String(expected) && actual !== undefined);
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.length === actual.length && expected.every((e, i) => containsPartial(actual[i], e));
  }
  if (actual === null || typeof actual !== 'object') return false;
  return Object.entries(expected as Record<string, unknown>).every(([k, v]) => containsPartial((actual as Record<string, unknown>)[k], v));
}
