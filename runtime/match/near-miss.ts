import { holds, holdsForAny } from '../../common/patterns/index.js';
import { splitRequestPath, templateSegments, type TemplateSegment } from './path-pattern.js';
import type { ValueCondition } from './value-conditions.js';

/** A route a request could have been meant for, with what it asks of a request beyond method and path. */
export interface MissCandidate {
  method: string;
  /** The route's path as listed (`/v1/pets/{petId}`, `/legacy/**`). */
  path: string;
  source: string;
  mock_id?: string;
  /** Runtime mocks' conditions; each one a request fails is a mismatch. */
  headers?: ReadonlyArray<ValueCondition & { text: string }>;
  query?: ReadonlyArray<ValueCondition & { text: string }>;
  /** JSONPath conditions on the body, which a logged request cannot be checked against. */
  bodyConditions?: number;
}

export interface Mismatch {
  field: 'method' | 'path' | 'header' | 'query' | 'body';
  name?: string;
  expected: string;
  actual: string | null;
  reason: string;
}

export interface NearMiss {
  method: string;
  path: string;
  source: string;
  mock_id?: string;
  /** Lower is closer: 0 would have matched. */
  score: number;
  mismatches: Mismatch[];
}

export interface MissedRequest {
  method: string;
  path: string;
  headers: Readonly<Record<string, string>>;
  query: ReadonlyMap<string, string[]>;
}

/**
 * The `limit` candidates closest to a request nothing matched, each with every field it failed
 * on. Runs on the admin API's request (the unmatched view), never on the mock's request path.
 */
export function nearestRoutes(request: MissedRequest, candidates: readonly MissCandidate[], limit = 3): NearMiss[] {
  const segments = splitRequestPath(request.path);
  const ranked = candidates.map((candidate) => explain(request, segments, candidate));
  ranked.sort((a, b) => a.score - b.score || a.mismatches.length - b.mismatches.length);
  return ranked.slice(0, limit);
}

function explain(request: MissedRequest, segments: readonly string[], candidate: MissCandidate): NearMiss {
  const mismatches: Mismatch[] = [];
  let score = 0;
  if (!methodFits(candidate.method, request.method)) {
    mismatches.push({ field: 'method', expected: candidate.method, actual: request.method, reason: `the request is ${request.method}, the route answers ${candidate.method}` });
    score += 1;
  }
  score += pathMisses(templateSegments(candidate.path), segments, mismatches);
  // a request on a mock's very method and path that fails its conditions was most likely meant for it
  const conditionCost = 0.25;
  for (const condition of candidate.headers ?? []) {
    const value = request.headers[condition.name];
    if (holds(condition.condition, value)) continue;
    mismatches.push({ field: 'header', name: condition.name, expected: condition.text, actual: value === undefined ? null : cut(value), reason: value === undefined ? `the request has no ${condition.name} header` : `${condition.name} does not satisfy ${condition.text}` });
    score += conditionCost;
  }
  for (const condition of candidate.query ?? []) {
    const values = request.query.get(condition.name);
    if (holdsForAny(condition.condition, values)) continue;
    const actual = values === undefined ? null : cut(values.join(', '));
    mismatches.push({ field: 'query', name: condition.name, expected: condition.text, actual, reason: actual === null ? `the request has no ${condition.name} query parameter` : `${condition.name} does not satisfy ${condition.text}` });
    score += conditionCost;
  }
  if (mismatches.length === 0 && (candidate.bodyConditions ?? 0) > 0) {
    mismatches.push({ field: 'body', expected: `${candidate.bodyConditions} match_json_path condition(s)`, actual: null, reason: 'method, path, headers and query fit: the JSON body must have failed a match_json_path condition (bodies are not kept)' });
    score += conditionCost;
  }
  return { method: candidate.method, path: candidate.path, source: candidate.source, ...(candidate.mock_id === undefined ? {} : { mock_id: candidate.mock_id }), score: Math.round(score * 100) / 100, mismatches };
}

function methodFits(routeMethod: string, method: string): boolean {
  return routeMethod === method || routeMethod === 'ANY' || (routeMethod === 'GET' && method === 'HEAD');
}

/** Adds a mismatch per segment that differs (and one for a difference in length); returns their cost. */
function pathMisses(template: readonly TemplateSegment[], segments: readonly string[], out: Mismatch[]): number {
  let cost = 0;
  const rest = template.findIndex((s) => typeof s !== 'string' && s.any === 'rest');
  const compared = rest === -1 ? template.length : rest;
  for (let i = 0; i < Math.min(compared, segments.length); i++) {
    const expected = template[i];
    const actual = segments[i];
    if (typeof expected !== 'string') {
      if (actual !== '') continue;
      out.push({ field: 'path', expected: '{param}', actual, reason: `segment ${i + 1} is empty, the route takes a parameter there` });
      cost += 1;
    } else if (expected !== actual) {
      out.push({ field: 'path', expected, actual: cut(actual), reason: `segment ${i + 1} is ${JSON.stringify(cut(actual))}, the route has ${JSON.stringify(expected)}` });
      // a typo (pet/pets) is closer than another word (users/pets)
      cost += 0.5 + 0.5 * (distance(expected, actual) / Math.max(expected.length, actual.length, 1));
    }
  }
  const short = rest === -1 ? template.length !== segments.length : segments.length < compared;
  if (short) {
    const wanted = rest === -1 ? `${template.length}` : `at least ${compared}`;
    out.push({ field: 'path', expected: `${wanted} segment(s)`, actual: `${segments.length}`, reason: `the request path has ${segments.length} segment(s), the route ${wanted}` });
    cost += Math.abs(compared - segments.length) || 1;
  }
  return cost;
}

/** What a request sent, as shown: a hostile value is cut, so the answer stays small. */
const cut = (text: string): string => (text.length > 120 ? `${text.slice(0, 120)}…` : text);

/** Levenshtein distance, on segments cut to 64 characters (a path segment is short; a hostile one costs nothing more). */
function distance(a: string, b: string): number {
  const x = a.slice(0, 64);
  const y = b.slice(0, 64);
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[y.length];
}
