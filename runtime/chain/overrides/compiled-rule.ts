import type { LinearPattern } from '../../../common/patterns/index.js';
import type { Exchange } from '../exchange/index.js';
import {
  certificateHolds,
  compileCertificateConditions,
  compileGlob,
  compileJsonPathConditions,
  type CertificateConditions,
  compileValueConditions,
  headersMatch,
  jsonPathConditionsHold,
  queryMatches,
  type JsonPathCondition,
  type ValueCondition,
} from '../../match/index.js';
import type { OverrideRule } from './override-rule.js';

/** An enabled rule prepared once: its conditions compiled, the path glob as a linear-time pattern, the body serialised. */
export interface CompiledRule {
  name: string;
  /** undefined: any method */
  method: string | undefined;
  path: LinearPattern | undefined;
  query: ValueCondition[];
  headers: ValueCondition[];
  jsonPath: JsonPathCondition[];
  /** match.client_certificate: subject, SAN and fingerprint of the client's TLS certificate. */
  certificate: CertificateConditions | undefined;
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
    ...compileMatchConditions(match),
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
  if (rule.query.length > 0 && !queryMatches(rule.query, ex.query)) return false;
  if (!headersMatch(rule.headers, ex.headers)) return false;
  if (rule.certificate !== undefined && !certificateHolds(rule.certificate, ex.clientCertificate)) return false;
  return rule.jsonPath.length === 0 || jsonPathConditionsHold(rule.jsonPath, ex.json);
}

/**
 * A rule's query, header and JSONPath conditions (docs/configuration.md, "Conditions"): a bare string is the
 * exact value; a query parameter given twice matches when any of its values does. Throws
 * PatternError naming the field (`match.headers.x-tenant: …`).
 */
export function compileMatchConditions(match: NonNullable<OverrideRule['match']>): Pick<CompiledRule, 'query' | 'headers' | 'jsonPath' | 'certificate'> {
  return {
    certificate: compileCertificateConditions(match.client_certificate, 'match.client_certificate', 'exact'),
    query: compileValueConditions(match.query, 'match.query', 'exact', false),
    headers: compileValueConditions(match.headers, 'match.headers', 'exact', true),
    jsonPath: compileJsonPathConditions(match.json_path, 'exact', 'match.json_path'),
  };
}

function lowerNames(map: Record<string, string> | undefined): Array<[string, string]> {
  return Object.entries(map ?? {}).map(([name, value]) => [name.toLowerCase(), value]);
}
