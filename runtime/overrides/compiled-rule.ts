import type { LinearPattern } from '../../common/patterns/index.js';
import type { Exchange } from '../exchange/index.js';
import { compileGlob } from '../match/index.js';
import type { OverrideRule } from './rule.js';

/** An enabled rule prepared once: lower-cased header names, the path glob as a linear-time pattern, the body serialised. */
export interface CompiledRule {
  name: string;
  /** undefined: any method */
  method: string | undefined;
  path: LinearPattern | undefined;
  query: Array<[string, string]>;
  headers: Array<[string, string]>;
  status: number | undefined;
  setHeaders: Array<[string, string]>;
  /** The replacement body and its content type (undefined when the rule's headers name one). */
  body: { text: string; type: string | undefined } | undefined;
  merge: Record<string, unknown> | undefined;
  delayMs: number | undefined;
}

export function compileRule(rule: OverrideRule): CompiledRule {
  const { match = {} } = rule;
  const setHeaders = lowerNames(rule.headers);
  const ownType = setHeaders.some(([name]) => name === 'content-type');
  return {
    name: rule.name,
    method: match.method === undefined || match.method === 'ANY' ? undefined : match.method,
    path: match.path === undefined ? undefined : compileGlob(match.path),
    query: Object.entries(match.query ?? {}),
    headers: lowerNames(match.headers),
    status: rule.status,
    setHeaders,
    // as for mocks: a string is text, anything else JSON
    body:
      rule.body === undefined
        ? undefined
        : typeof rule.body === 'string'
          ? { text: rule.body, type: ownType ? undefined : 'text/plain' }
          : { text: JSON.stringify(rule.body), type: ownType ? undefined : 'application/json' },
    merge: rule.merge,
    delayMs: rule.delay_ms,
  };
}

/** Hot path; `path` is the request's as globs see it, computed by the caller only when some rule needs it. */
export function ruleMatches(rule: CompiledRule, ex: Exchange, path: () => string): boolean {
  if (rule.method !== undefined && rule.method !== ex.method) return false;
  if (rule.path !== undefined && !rule.path.test(path())) return false;
  for (const [name, value] of rule.query) if (!ex.query.get(name)?.includes(value)) return false;
  for (const [name, value] of rule.headers) if (ex.headers[name] !== value) return false;
  return true;
}

function lowerNames(map: Record<string, string> | undefined): Array<[string, string]> {
  return Object.entries(map ?? {}).map(([name, value]) => [name.toLowerCase(), value]);
}
