/**
 * Where an answer came from: set by the stage or terminal that made it, carried into the request
 * log entry (`source`), the admin API's `GET /__mock/logs?source=`, the dashboards' filter and the
 * Prometheus label of `mock_requests_total` (a fixed set, so the label's values stay few). Declared
 * once, for the server and the clients that read it (the web dashboard, `mock tui`).
 */
export const ANSWER_SOURCES = [
  'example',
  'generated',
  'custom_route',
  'runtime_mock',
  'override',
  'fixture',
  'state_machine',
  'proxy',
  'continuum',
  'ai',
  'script',
  'echo',
  'callback',
  'builtin',
  'chaos',
  'refusal',
  'unmatched',
  'error',
] as const;

export type AnswerSource = (typeof ANSWER_SOURCES)[number];

/** What each source means, as the dashboards show it. */
export const ANSWER_SOURCE_LABELS: Readonly<Record<AnswerSource, string>> = {
  example: 'description example',
  generated: 'generated',
  custom_route: 'custom route',
  runtime_mock: 'runtime mock',
  override: 'override',
  fixture: 'fixture (replay)',
  state_machine: 'state machine',
  proxy: 'proxy',
  continuum: 'continuum',
  ai: 'AI (model)',
  script: 'WebSocket script',
  echo: 'WebSocket echo',
  callback: 'callback or webhook sent',
  builtin: 'built in',
  chaos: 'chaos fault',
  refusal: 'refusal',
  unmatched: 'unmatched',
  error: 'error',
};

export const isAnswerSource = (value: string): value is AnswerSource => (ANSWER_SOURCES as readonly string[]).includes(value);

const BY_CODE: Readonly<Record<string, AnswerSource>> = {
  MOCK_ERR_ROUTE_NOT_FOUND: 'unmatched',
  MOCK_ERR_METHOD_NOT_ALLOWED: 'unmatched',
  MOCK_ERR_GRPC_BRIDGE_NO_METHOD: 'unmatched',
  MOCK_ERR_INTERNAL: 'error',
  MOCK_ERR_STATE_STORE_UNAVAILABLE: 'error',
  MOCK_ERR_PLUGIN_FAILED: 'error',
  MOCK_ERR_PLUGIN_TIMEOUT: 'error',
  MOCK_ERR_PLUGIN_DISABLED: 'error',
  MOCK_ERR_FAULT_INJECTED: 'chaos',
  MOCK_ERR_CHAOS_HTTP_ERROR: 'chaos',
  MOCK_ERR_CHAOS_CONNECTION: 'chaos',
  MOCK_ERR_CHAOS_TIMEOUT: 'chaos',
  MOCK_ERR_CHAOS_PACKET_LOSS: 'chaos',
  MOCK_ERR_UPSTREAM_UNREACHABLE: 'proxy',
  MOCK_ERR_UPSTREAM_TIMEOUT: 'proxy',
  MOCK_ERR_UPSTREAM_TOO_LARGE: 'proxy',
  MOCK_ERR_PROXY_DOT_SEGMENT: 'proxy',
  MOCK_ERR_CONTINUUM_FAILED: 'continuum',
  MOCK_ERR_STATE_CONFLICT: 'state_machine',
  MOCK_ERR_STATE_TOO_LARGE: 'state_machine',
};

/**
 * The source of a catalogue answer: injected faults are chaos; the protective refusals (rate
 * limit, circuit breaker, bulkhead, connection limit), validation, security and limits are
 * refusals; no route is unmatched; a failure of the mock itself is an error.
 */
export const sourceOfCode = (code: string): AnswerSource => BY_CODE[code] ?? 'refusal';
