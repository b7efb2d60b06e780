/**
 * The one matching module: what selects requests, for every feature that does.
 *
 * - Path globs (glob.ts): one dialect for override rules, validation overrides and the log filter.
 * - Path patterns (path-pattern.ts): whole `{param}` segments, for runtime mocks and the admin
 *   API's endpoints; templateSegments/patternsOverlap tell whether a pattern can reach a route.
 * - The condition dialect (common/patterns/condition.ts, docs/configuration.md, "Conditions"): exact
 *   (`{equals}`), regex (`{matches}`, linear time), presence (`{present}`) on a header, a query
 *   value or the values a JSONPath (RFC 9535, bounded: common/patterns/json-path.ts) selects in a
 *   JSON body. Every feature that selects requests compiles its conditions with it; a bare string
 *   keeps the meaning it always had there.
 * - Value conditions (value-conditions.ts): header and query conditions (runtime mocks'
 *   match_headers, match_query; override rules' match.headers, match.query).
 * - Custom-route conditions (route-conditions.ts): query and header conditions, JSONPath
 *   conditions and a partial deep match of the JSON body.
 * - JSONPath for any JSON value (compileJsonPath: values, some; firstValue), for features that
 *   read a value at a path rather than select requests.
 * - Condition expressions (expression*.ts): one string such as
 *   `AND($.user.role == 'admin', header[x-beta] != '')` over JSONPaths into the JSON body, headers
 *   and query parameters, for the conditional proxy's rules; a tokenizer and a recursive-descent
 *   parser, no eval, errors with their position.
 *
 * - Near misses (near-miss.ts): for a request nothing matched, the closest routes and every field
 *   each one failed on (the dashboards' unmatched view).
 * - Origins (origins.ts): browser origins allowed by a setting, for the admin API's cross-site
 *   guard and the mocked API's CORS.
 * - Request matchers (request-matcher.ts): chaos's request_matcher, by client address or CIDR
 *   range (node:net BlockList), headers, body size and chunked transfer.
 *
 * Every pattern runs in linear time (common/patterns); malformed input throws PatternError (an
 * expression: ExpressionError, with the position), or for
 * origins and request matchers MockError MOCK_ERR_CONFIG_INVALID naming the setting.
 */
export {
  JSONPATH_BASE_STEPS,
  JSONPATH_STEPS_PER_NODE,
  JsonPathLimitError,
  MAX_JSONPATH_DEPTH,
  MAX_JSONPATH_LENGTH,
  PatternError,
  compileCondition,
  compileJsonPath,
  compileJsonPathConditions,
  firstValue,
  holds,
  holdsForAny,
  jsonEquals,
  jsonPathHolds,
  type Condition,
  type ConditionSpec,
  type JsonPath,
  type JsonPathCondition,
  type LinearPattern,
  type Shorthand,
} from '../../common/patterns/index.js';
export { certificateHolds, compileCertificateConditions, type CertificateConditions, type CertificateMatchSpec, type MatchableCertificate } from './certificate-conditions.js';
export { compileExpression, type Expression, type ExpressionRequest } from './expression.js';
export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, parseExpression, type ExpressionNode, type Operand } from './expression-syntax.js';
export { ExpressionError, tokenize, type Operator, type Token } from './expression-tokens.js';
export { compileGlob, globMayReach, requestPath } from './glob.js';
export { DEFAULT_PORTS, OriginList, parseOrigin, type ParsedOrigin } from './origins.js';
export { nearestRoutes, type MissCandidate, type MissedRequest, type Mismatch, type NearMiss } from './near-miss.js';
export { matchesPath, parsePathPattern, pathParams, patternsOverlap, splitRequestPath, templateSegments, type PathPattern, type TemplateSegment } from './path-pattern.js';
export { compileRequestMatcher, type MatchableRequest, type RequestMatcherSpec } from './request-matcher.js';
export { compileRouteConditions, conditionsHold, containsPartial, type RouteConditions, type RouteMatchSpec } from './route-conditions.js';
export { show } from './show.js';
export { compileConditions, compileValueConditions, headersMatch, jsonPathConditionsHold, queryMatches, type ValueCondition } from './value-conditions.js';
