/**
 * Live override rules (`GET`/`PUT /__mock/overrides`, `MOCK_HTTP_OVERRIDES`,
 * `MOCK_HTTP_OVERRIDES_GLOB`, config `http.overrides.rules`). They change what the server would
 * answer (from the description, a custom route or a mock) for matching requests; mocks, by
 * contrast, add endpoints.
 *
 * Rule wire shape:
 *
 *   {
 *     name:      string   required, unique in the set
 *     enabled:   boolean  default true
 *     match?: {           every given condition must hold; no match: every request
 *       method?:  string  any case; ANY or absent: every method
 *       path?:    string  starts with /; glob over the percent-decoded path: `*` any text within
 *                          one segment, `**` as a whole segment any number of segments (none
 *                          included); no glob: that exact path; a trailing slash is ignored
 *       query?:   { [name]: string }  exact value (any one, when repeated)
 *       headers?: { [name]: string }  exact value; names case-insensitive
 *     }
 *     status?:   integer  100-599: replaces the status
 *     headers?:  { [name]: string }  set, replacing any header of that name (case-insensitive)
 *     body?:     any JSON value: replaces the body; as for mocks a string is served as text/plain
 *                and anything else serialised as application/json, unless `headers` names a
 *                content-type
 *     merge?:    object   RFC 7396 JSON merge patch into a JSON body (content-type application/json
 *                or +json); a no-op for a body that is not JSON
 *     delay_ms?: integer  0 to 3600000 (one hour, MAX_DELAY_MS): the caller delays the answer by it
 *   }
 *
 * A rule needs at least one effect (status, headers, body, merge, delay_ms); unknown fields are
 * refused. PUT takes an array or `{rules: [...]}`; GET returns the array with defaults filled in.
 * Every enabled matching rule applies, in order, later ones winning on a conflict; within one
 * rule: body, then merge, then status, then headers.
 */
export { loadOverrides, type LoadOverridesOptions } from './load.js';
export { OverrideSet, type OverrideOutcome } from './override-set.js';
export { readRuleSet, type OverrideRule, type RuleSetResult } from './rule.js';
