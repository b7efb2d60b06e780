/**
 * The one matching module: what selects requests, for every feature that does.
 *
 * - Path globs (glob.ts): one dialect for override rules, validation overrides and the log filter.
 * - Path patterns (path-pattern.ts): whole `{param}` segments, for runtime mocks and the admin
 *   API's endpoints; templateSegments/patternsOverlap tell whether a pattern can reach a route.
 * - Value conditions (value-conditions.ts): a header or query value matching a pattern whole
 *   (runtime mocks' match_headers, match_query).
 * - Custom-route conditions (route-conditions.ts): query and header values exact or `/regex/`,
 *   and a partial deep match of the JSON body.
 *
 * - Origins (origins.ts): browser origins allowed by a setting, for the admin API's cross-site
 *   guard and the mocked API's CORS.
 * - Request matchers (request-matcher.ts): chaos's request_matcher, by client address or CIDR
 *   range (node:net BlockList), headers, body size and chunked transfer.
 *
 * Every pattern runs in linear time (common/patterns); malformed input throws PatternError, or for
 * origins and request matchers MockError MOCK_ERR_CONFIG_INVALID naming the setting.
 */
export { PatternError, type LinearPattern } from '../../common/patterns/index.js';
export { compileGlob, requestPath } from './glob.js';
export { DEFAULT_PORTS, OriginList, parseOrigin, type ParsedOrigin } from './origins.js';
export { matchesPath, parsePathPattern, pathParams, patternsOverlap, splitRequestPath, templateSegments, type PathPattern, type TemplateSegment } from './path-pattern.js';
export { compileRequestMatcher, type MatchableRequest, type RequestMatcherSpec } from './request-matcher.js';
export { compileRouteConditions, conditionsHold, containsPartial, type RouteConditions, type RouteMatchSpec } from './route-conditions.js';
export { show } from './show.js';
export { compileConditions, headersMatch, queryMatches, type ValueCondition } from './value-conditions.js';
