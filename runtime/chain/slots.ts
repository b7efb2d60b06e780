/**
 * The request chain's order, outermost first (DESIGN.md, "The request chain"). A stage takes one
 * slot; the terminal, mock generation from the description and mock.yaml's custom routes (spec
 * step 6), always comes last, and recording (7) is an afterAnswer hook. Slots of later features
 * are reserved here so that each is a new stage file:
 *
 * - sandbox: while the admin is embedded in the mock, every answer is marked as a sandboxed document
 * - circuit-breaker, bulkhead, rate-limit, connection-limit, packet-loss: protective chaos, in front so
 *   that a refused request never pays for latency it was not going to get; traffic-shaping paces
 *   whatever the stages inside it answer (bandwidth) and cuts off answers slower than its timeout
 * - cors, token-endpoint, security: the mocked API's contract (issue 11); the mock OAuth 2.0
 *   token endpoint answers before security so that getting a token needs none
 * - latency, overrides: adjust every answer produced inside them (they wrap the rest)
 * - replay (1), stateful (2), route-chaos (3), faults (4): fixtures, state machines, per-route chaos
 *   (core.routes, /__mock/api/route-chaos), global faults (the admin's faults object, and
 *   observability.chaos.fault_injection)
 * - mocks: runtime mocks, explicit answers a user created, before the proxy (as before this seam)
 * - proxy (5): the conditional proxy and the reality continuum
 */
export const SLOTS = [
  'sandbox',
  'circuit-breaker',
  'bulkhead',
  'rate-limit',
  'connection-limit',
  'packet-loss',
  'traffic-shaping',
  'cors',
  'token-endpoint',
  'security',
  'latency',
  'overrides',
  'replay',
  'stateful',
  'route-chaos',
  'faults',
  'mocks',
  'proxy',
] as const;

export type Slot = (typeof SLOTS)[number];

export const slotRank = (slot: Slot): number => SLOTS.indexOf(slot);
