import { PatternError, compileLinear, type LinearPattern } from '../../common/patterns/index.js';
import { show } from './show.js';

/** One `match_headers` / `match_query` entry: the pattern must match the whole value. */
export interface ValueCondition {
  name: string;
  pattern: LinearPattern;
}

/**
 * Compiles the patterns once, by the linear-time engine (a mock is created over the API, and its
 * patterns run on every request); header names are lower-cased to meet the request's header keys.
 */
export function compileConditions(map: Record<string, string> | undefined, field: 'match_headers' | 'match_query'): ValueCondition[] {
  return Object.entries(map ?? {}).map(([name, source]) => {
    let pattern: LinearPattern;
    try {
      pattern = compileLinear(source, { whole: true });
    } catch (error) {
      throw new PatternError(`${field}.${name}: the pattern ${show(source)} ${(error as Error).message}`);
    }
    return { name: field === 'match_headers' ? name.toLowerCase() : name, pattern };
  });
}

/** Hot path. */
export function headersMatch(conditions: readonly ValueCondition[], headers: Record<string, string>): boolean {
  for (const { name, pattern } of conditions) {
    const value = headers[name];
    if (value === undefined || !pattern.test(value)) return false;
  }
  return true;
}

/** Hot path: a repeated query parameter matches when any of its values does. */
export function queryMatches(conditions: readonly ValueCondition[], query: ReadonlyMap<string, string[]>): boolean {
  for (const { name, pattern } of conditions) {
    const values = query.get(name);
    if (values === undefined || !values.some((value) => pattern.test(value))) return false;
  }
  return true;
}
