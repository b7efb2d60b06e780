/**
 * The request chain's order, outermost first (DESIGN.md, "The request chain"): the one place it
 * lives. Each stage takes a slot of its own, so the slot alone orders the stages, whatever order
 * they are registered in. The terminal, mock generation from the description and mock.yaml's
 * custom routes (spec step 6), always comes last, and recording (7) is the afterAnswer hook of the
 * record and recorder stages. The README's slot table names these slots in this order (a test
 * holds it to this list):
 *
 * - sandbox: while the admin is embedded in the mock, every answer is marked as a sandboxed document
 * - cors: the mocked API's CORS, outside protective chaos so that its refusals (429, 503) reach the
 *   page with their reason rather than as a CORS error, and a browser's preflight is never refused
 *   by chaos meant for the page's requests
 * - tenant-quota: a hosted mock's plan (docs/hosting.md): requests per minute and at once, before
 *   anything of the tenant's own mock runs
 * - circuit-breaker, bulkhead, rate-limit, connection-limit, packet-loss: protective chaos, in front so
 *   that a refused request never pays for latency it was not going to get; traffic-shaping paces
 *   whatever the stages inside it answer (bandwidth) and cuts off answers slower than its timeout
 * - token-endpoint, security: the mocked API's contract (issue 11); the mock OAuth 2.0
 *   token endpoint answers before security so that getting a token needs none
 * - plugin-middleware: plugins.middleware (validate_token style, 401), beside the security schemes
 * - plugin-response: plugins.response_modifiers, given every answer made inside it before delivery
 * - latency, overrides: adjust every answer produced inside them (they wrap the rest)
 * - replay (1), then record and recorder, which only pass the request on and save the answer
 *   after it is written (fixture files, the recorder database)
 * - callbacks: only on routes that declare callbacks; sends them once the answer is written
 * - stateful (2), entities, route-chaos (3), faults and fault-injection (4): state machines, the
 *   collections of the scenario in use (docs/scenarios.md), per-route chaos (core.routes,
 *   /__mock/api/route-chaos), global faults (the admin's faults object, then
 *   observability.chaos.fault_injection)
 * - mocks: runtime mocks, explicit answers a user created, before the proxy (as before this seam)
 * - contract-diff: wraps the three upstream stages, so that it sees what an upstream answered
 *   (contract_diff.capture) and holds it against the description
 * - proxy-rules, continuum, proxy (5): the conditional proxy's rules select requests one by one,
 *   the reality continuum owns its paths, then proxy.enabled forwards the rest
 * - plugin-validator: plugins.request_validators, beside the description's own validation in
 *   the terminal
 * - ai: AI-assisted mocks (docs/ai.md), last, in place of the generator: a valid request to an operation
 *   the model covers gets the model's answer when it is valid and in time, else goes on to the terminal
 */
export const SLOTS = [
  'sandbox',
  'cors',
  'tenant-quota',
  'circuit-breaker',
  'bulkhead',
  'rate-limit',
  'connection-limit',
  'packet-loss',
  'traffic-shaping',
  'token-endpoint',
  'security',
  'plugin-middleware',
  'plugin-response',
  'latency',
  'overrides',
  'replay',
  'record',
  'recorder',
  'callbacks',
  'stateful',
  'entities',
  'route-chaos',
  'faults',
  'fault-injection',
  'mocks',
  'contract-diff',
  'proxy-rules',
  'continuum',
  'proxy',
  'plugin-validator',
  'ai',
] as const;

export type Slot = (typeof SLOTS)[number];

export const slotRank = (slot: Slot): number => SLOTS.indexOf(slot);
