import { PatternError, compileCondition, holds, holdsForAny, jsonPathHolds, type Condition, type JsonPathCondition, type Shorthand } from '../../common/patterns/index.js';
import { show } from './show.js';

/** One header or query condition: the name as the request carries it, and the condition on its value. */
export interface ValueCondition {
  name: string;
  condition: Condition;
}

/**
 * A map of names to conditions (docs/configuration.md, "Conditions"), compiled once; `shorthand` is what a bare
 * string means where the map is written. Header names are lower-cased to meet the request's
 * header keys when `headers` is set. Throws PatternError naming the entry (`<where>.<name>: …`).
 */
export function compileValueConditions(map: unknown, where: string, shorthand: Shorthand, headers: boolean): ValueCondition[] {
  if (map === undefined) return [];
  if (map === null || typeof map !== 'object' || Array.isArray(map)) throw new PatternError(`${where} must map names to conditions (got ${show(map)})`);
  return Object.entries(map).map(([name, spec]) => {
    let condition: Condition;
    try {
      condition = compileCondition(spec, shorthand);
    } catch (error) {
      if (error instanceof PatternError) throw new PatternError(`${where}.${name}: ${error.message}`);
      throw error;
    }
    return { name: headers ? name.toLowerCase() : name, condition };
  });
}

/**
 * Runtime mocks' match_headers / match_query: a bare string is a pattern the whole value must
 * match, compiled once by the linear-time engine (a mock is created over the API, and its patterns
 * run on every request).
 */
export function compileConditions(map: Record<string, unknown> | undefined, field: 'match_headers' | 'match_query'): ValueCondition[] {
  return compileValueConditions(map, field, 'regex', field === 'match_headers');
}

/** Hot path. */
export function headersMatch(conditions: readonly ValueCondition[], headers: Record<string, string>): boolean {
  for (const { name, condition } of conditions) if (!holds(condition, headers[name])) return false;
  return true;
}

/** Hot path: a repeated query parameter matches when any of its values does. */
export function queryMatches(conditions: readonly ValueCondition[], query: ReadonlyMap<string, string[]>): boolean {
  for (const { name, condition } of conditions) if (!holdsForAny(condition, query.get(name))) return false;
  return true;
}

/** Hot path: every JSONPath condition holds in the JSON body (`document`: undefined when there is none). */
export function jsonPathConditionsHold(conditions: readonly JsonPathCondition[], document: unknown): boolean {
  for (const condition of conditions) if (!jsonPathHolds(condition, document)) return false;
  return true;
}
