import { compileJsonPathConditions, holds, jsonPathHolds, type ConditionSpec, type JsonPathCondition } from '../../common/patterns/index.js';
import { compileValueConditions, type ValueCondition } from './value-conditions.js';
import { certificateHolds, compileCertificateConditions, type CertificateConditions, type CertificateMatchSpec, type MatchableCertificate } from './certificate-conditions.js';

/** What mock.yaml's custom routes match on, as the build carries it. */
export interface RouteMatchSpec {
  query?: Record<string, ConditionSpec>;
  headers?: Record<string, ConditionSpec>;
  /** A partial deep match of the JSON body. */
  body?: unknown;
  /** JSONPaths into the JSON body, each with its condition. */
  json_path?: Record<string, ConditionSpec>;
  /** subject, san, fingerprint of the client's TLS certificate, each with its condition. */
  client_certificate?: CertificateMatchSpec;
}

/**
 * A custom route's conditions compiled once (docs/configuration.md, "Conditions"): a bare string is the exact
 * value, or a linear-time pattern matching any part when written `/regex/flags`.
 */
export interface RouteConditions {
  query: ValueCondition[];
  headers: ValueCondition[];
  body: unknown;
  jsonPath: JsonPathCondition[];
  certificate: CertificateConditions | undefined;
  needsBody: boolean;
}

/** Throws PatternError naming the condition (`match.query.<name>: …`). */
export function compileRouteConditions(match: RouteMatchSpec): RouteConditions {
  const jsonPath = compileJsonPathConditions(match.json_path, 'route', 'match.json_path');
  return {
    query: compileValueConditions(match.query, 'match.query', 'route', false),
    headers: compileValueConditions(match.headers, 'match.headers', 'route', true),
    body: match.body,
    jsonPath,
    certificate: compileCertificateConditions(match.client_certificate, 'match.client_certificate', 'route'),
    needsBody: match.body !== undefined || jsonPath.length > 0,
  };
}

/** Hot path: query and headers first; the body is parsed only when a condition reads it. A query parameter given twice: its first value counts. */
export function conditionsHold(c: RouteConditions, query: ReadonlyMap<string, string[]>, headers: Record<string, string>, body: () => unknown, certificate?: MatchableCertificate | null): boolean {
  for (const { name, condition } of c.query) if (!holds(condition, query.get(name)?.[0])) return false;
  for (const { name, condition } of c.headers) if (!holds(condition, headers[name])) return false;
  if (c.certificate !== undefined && !certificateHolds(c.certificate, certificate)) return false;
  if (!c.needsBody) return true;
  const json = body();
  if (c.body !== undefined && !containsPartial(json, c.body)) return false;
  for (const condition of c.jsonPath) if (!jsonPathHolds(condition, json)) return false;
  return true;
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
