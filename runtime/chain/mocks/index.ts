/**
 * Mocks created at run time over the admin API (`/__mock/api/mocks`). They add endpoints next to
 * the description's; the caller asks the store first and skips it while `size` is 0.
 *
 * Wire shape (create body, and what GET returns):
 *
 *   {
 *     id:            string   optional on create (a random UUID is generated); letters, digits, . _ ~ -
 *     name:          string   default "<METHOD> <path>"
 *     method:        string   GET POST PUT PATCH DELETE HEAD OPTIONS, or ANY for every method;
 *                             any case on input, upper case on output; a GET mock also answers HEAD
 *     path:          string   starts with /; `{param}` captures one whole, non-empty segment
 *                             (percent-decoded); a trailing slash is ignored on both sides
 *     response: {
 *       body?:       any JSON value; may hold template tokens. A string is served as text/plain,
 *                             anything else serialised as application/json, unless headers name a
 *                             content-type. No body: an empty response without content-type.
 *       headers?:    { [name]: string }  values may hold template tokens
 *     }
 *     enabled:       boolean  default true; disabled mocks never match
 *     status_code:   integer  100-599, default 200
 *     priority:      integer  default 0; higher wins before any other rule
 *     latency_ms?:   integer  0 to 3600000 (one hour, MAX_DELAY_MS); the caller delays the answer by it
 *     match_headers?: { [name]: condition }  header names case-insensitive
 *     match_query?:  { [name]: condition }  any one value, when repeated
 *     match_json_path?: { [JSONPath]: condition }  a value the path selects in the JSON body
 *                             A condition is the one dialect (docs/configuration.md, "Conditions"): {equals},
 *                             {matches}, {present}, a plain value, or a bare string: a regex the
 *                             whole value must match (of a present header or query value)
 *   }
 *
 * Unknown fields are refused (a typo would otherwise silently match everything). GET answers
 * carry every field above, defaults filled in; optional ones only when set. PUT replaces a whole
 * mock under the id in its path and keeps its place in the list.
 *
 * Choosing among matching mocks: higher `priority`; then the spec's matching order (static
 * segments beat `{param}` segments, the first differing segment deciding; more query conditions;
 * more header conditions; more JSONPath conditions); then the closer method (exact, GET for HEAD, ANY); then the mock
 * created last. Templates expand only when template expansion is on, like everywhere else.
 *
 * `describeInputError` and `show` are shared with
 * runtime/chain/overrides, which matches requests and checks admin input the same way;
 * `queryRecord` with runtime/chain/stateful, whose templates read the query as mocks' do.
 */
export { describeInputError, show } from './input-error.js';
export { Mock, type MethodFit } from './mock.js';
export { MOCK_METHODS, type MockRecord } from './record.js';
export { MockStore, type MockMatch, type MockResult, mocksBudget, type StoredMock } from './store.js';
export { queryRecord } from './request-parts.js';
