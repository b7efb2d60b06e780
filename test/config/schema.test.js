import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { loadConfig } from '../../dist/src/config/index.js';

// Each file content and the message it must produce, exactly: one line per error.

/** `loadConfig` fails with exactly this code and message (t.throws only matches a substring). */
function failsExactly(t, load, code, message, name) {
  try {
    load();
    t.fail(`${name}: no error`);
  } catch (error) {
    t.equal(error.code, code, name);
    t.equal(error.message, message, name);
  }
}
const cases = [
  ['server:\n  http_port: abc\n', 'mock.yaml: server.http_port: expected integer, got "abc"'],
  ['server:\n  http_port: 3000.5\n', 'mock.yaml: server.http_port: expected integer, got 3000.5'],
  ['server:\n  http_port: 70000\n', 'mock.yaml: server.http_port: expected integer <= 65535, got 70000'],
  ['server:\n  bind: 8080\n', 'mock.yaml: server.bind: expected string, got 8080'],
  [
    'server:\n  htp_port: 1\n',
    'mock.yaml: server.htp_port: unknown key (did you mean http_port?); expected one of http_port, ws_port, grpc_port, graphql_port, bind, http_backend, http_version, workers, tls, shutdown_timeout_ms',
  ],
  ['server:\n  tcp: 1\n', 'mock.yaml: server.tcp: unknown key; expected one of http_port, ws_port, grpc_port, graphql_port, bind, http_backend, http_version, workers, tls, shutdown_timeout_ms'],
  ['server: null\n', 'mock.yaml: server: expected object, got null'],
  [
    'foo: 1\n',
    'mock.yaml: foo: unknown key; expected one of server, specs, validation, auth, response_template_expand, response, http, seed, now, logging, build, admin, core, grpc, websocket, graphql, proxy, metrics, recorder, contract_diff, callbacks, observability, chaos, reality_continuum, time_travel, tenancy, conformance, ai, plugins, state, scenarios',
  ],
  ['- a\n- b\n', 'mock.yaml: expected object, got ["a","b"]'],
  ['specs: ./api.yaml\n', 'mock.yaml: specs: expected array, got "./api.yaml"'],
  ['specs:\n  - 5\n', 'mock.yaml: specs[0]: expected string or object, got 5'],
  ['specs:\n  - ""\n', 'mock.yaml: specs[0]: expected a non-empty string, got ""'],
  ['specs:\n  - ok.yaml\n  - { base_path: /v1 }\n', 'mock.yaml: specs[1].path: required key is missing'],
  [
    'specs:\n  - { path: a.yaml, base: /v1 }\n',
    'mock.yaml: specs[0].base: unknown key (did you mean base_path?); expected one of path, base_path',
  ],
  ['validation:\n  mode: maybe\n', 'mock.yaml: validation.mode: expected one of off, warn, enforce, got "maybe"'],
  ['validation:\n  mode: false\n', 'mock.yaml: validation.mode: expected string, got false'],
  ['validation:\n  status_code: 200\n', 'mock.yaml: validation.status_code: expected integer >= 400, got 200'],
  ['validation:\n  aggregate_errors: "yes"\n', 'mock.yaml: validation.aggregate_errors: expected boolean, got "yes"'],
  [
    'validation:\n  overrides:\n    "GET /health": nope\n',
    'mock.yaml: validation.overrides["GET /health"]: expected one of off, warn, enforce, got "nope"',
  ],
  ['response_template_expand: 1\n', 'mock.yaml: response_template_expand: expected boolean, got 1'],
  ['http:\n  max_body_bytes: 0\n', 'mock.yaml: http.max_body_bytes: expected integer >= 1, got 0'],
  ['http:\n  routes: {}\n', 'mock.yaml: http.routes: expected array, got {}'],
  ['http:\n  routes:\n    - { method: GET }\n', 'mock.yaml: http.routes[0].path: required key is missing'],
  [
    'http:\n  routes:\n    - path: /x\n      response: { status: "200" }\n',
    'mock.yaml: http.routes[0].response.status: expected integer, got "200"',
  ],
  [
    'http:\n  routes:\n    - path: /x\n      match: { query: kind }\n',
    'mock.yaml: http.routes[0].match.query: expected object, got "kind"',
  ],
  [
    'http:\n  cors: { allow_origins: [x] }\n',
    'mock.yaml: http.cors.allow_origins: unknown key (did you mean allowed_origins?); expected one of enabled, allowed_origins, credentials, allowed_methods, allowed_headers, max_age_seconds, proxied',
  ],
  ['http:\n  keepalive_hint: 1\n', 'mock.yaml: http.keepalive_hint: expected boolean, got 1'],
  ['http:\n  overrides: { rules: [{ enabled: true }] }\n', 'mock.yaml: http.overrides.rules[0].name: required key is missing'],
  ['server:\n  ws_port: "3001"\n', 'mock.yaml: server.ws_port: expected integer, got "3001"'],
  ['server:\n  grpc_port: 65536\n', 'mock.yaml: server.grpc_port: expected integer <= 65535, got 65536'],
  ['server:\n  bind: local host\n', 'mock.yaml: server.bind: expected a host name or IP address without spaces, got "local host"'],
  ['admin:\n  enabled: yes\n', 'mock.yaml: admin.enabled: expected boolean, got "yes"'],
  ['admin:\n  mount_path: admin\n', 'mock.yaml: admin.mount_path: expected a path starting with /, got "admin"'],
  [
    'admin:\n  embed: true\n',
    'mock.yaml: admin.embed: unknown key (did you mean embedded?); expected one of enabled, port, bind, allowed_hosts, cors, embedded, mount_path, standalone, disable_api, limits, management_token, auth, tls, http_version',
  ],
  ['admin:\n  bind: "0.0.0.0 "\n', 'mock.yaml: admin.bind: expected a host name or IP address without spaces, got "0.0.0.0 "'],
  ['admin:\n  allowed_hosts: [http://mock.internal]\n', 'mock.yaml: admin.allowed_hosts[0]: expected a host name such as mock.internal, .example.com or *, got "http://mock.internal"'],
  [
    'admin:\n  cors: { allowed_origins: [localhost:5173] }\n',
    'mock.yaml: admin.cors.allowed_origins[0]: expected an origin such as http://localhost:5173, http://localhost:* (any port), https://*.example.com, or *, got "localhost:5173"',
  ],
  ['logging:\n  redact: authorization\n', 'mock.yaml: logging.redact: expected array, got "authorization"'],
  ['response:\n  caching: { enabled: true, ttl_seconds: 0 }\n', 'mock.yaml: response.caching.ttl_seconds: expected integer >= 1, got 0'],
  ['response:\n  caching: { enabled: true, ttl_seconds: 86401 }\n', 'mock.yaml: response.caching.ttl_seconds: expected integer <= 86400, got 86401'],
  ['response:\n  caching: { enabled: true, max_size_mb: 1025 }\n', 'mock.yaml: response.caching.max_size_mb: expected integer <= 1024, got 1025'],
  ['response:\n  template_expand: "on"\n', 'mock.yaml: response.template_expand: expected boolean, got "on"'],
  [
    'core:\n  fixtures: { directory: fx }\n',
    'mock.yaml: core.fixtures.directory: unknown key; expected one of dir, record_enabled, replay_enabled, record_get_only, ignore_query_params, match_headers, match_body, sequence_end, max_sequence, watch, max_recording_mb, max_unsaved_mb',
  ],
  ['core:\n  max_connections: 0\n', 'mock.yaml: core.max_connections: expected integer >= 1, got 0'],
  ['core:\n  routes:\n    - { method: GET }\n', 'mock.yaml: core.routes[0].path: required key is missing'],
  [
    'core:\n  routes:\n    - path: /x\n      latency: { enabled: true, distribution: gaussian }\n',
    'mock.yaml: core.routes[0].latency.distribution: expected one of fixed, normal, exponential, uniform, lognormal, got "gaussian"',
  ],
  [
    'core:\n  routes:\n    - path: /x\n      fault_injection: { enabled: true, probability: 2 }\n',
    'mock.yaml: core.routes[0].fault_injection.probability: expected number <= 1, got 2',
  ],
  [
    'core:\n  routes:\n    - path: /x\n      fault_injection:\n        fault_types: [{ type: explode }]\n',
    'mock.yaml: core.routes[0].fault_injection.fault_types[0].type: expected one of http_error, timeout, connection_error, got "explode"',
  ],
  [
    'core:\n  routes:\n    - path: /x\n      fault_injection:\n        fault_types: [{ type: http_error }]\n',
    'mock.yaml: core.routes[0].fault_injection.fault_types[0].status_code: required key is missing',
  ],
  [
    'core:\n  routes:\n    - path: /x\n      fault_injection:\n        fault_types: [{ type: timeout, duration_ms: 10, status_code: 500 }]\n',
    'mock.yaml: core.routes[0].fault_injection.fault_types[0].status_code: unknown key; expected one of type, duration_ms',
  ],
  [
    'core:\n  stateful:\n    state_machines: [{ name: orders, initial_state: a, states: [], transitions: [], resource_id_extract: { type: cookie } }]\n',
    'mock.yaml: core.stateful.state_machines[0].resource_id_extract.type: expected one of path_param, header, json_path, composite, got "cookie"',
  ],
  [
    'core:\n  stateful:\n    state_machines: [{ name: orders }]\n',
    [
      'mock.yaml: core.stateful.state_machines[0].initial_state: required key is missing',
      'mock.yaml: core.stateful.state_machines[0].states: required key is missing',
      'mock.yaml: core.stateful.state_machines[0].resource_id_extract: required key is missing',
      'mock.yaml: core.stateful.state_machines[0].transitions: required key is missing',
    ].join('\n'),
  ],
  ['grpc:\n  max_message_size: 0\n', 'mock.yaml: grpc.max_message_size: expected integer >= 1, got 0'],
  ['grpc:\n  excluded_services: helloworld.Greeter\n', 'mock.yaml: grpc.excluded_services: expected array, got "helloworld.Greeter"'],
  ['websocket:\n  heartbeat_interval: 1.5\n', 'mock.yaml: websocket.heartbeat_interval: expected integer, got 1.5'],
  ['server:\n  graphql_port: 70000\n', 'mock.yaml: server.graphql_port: expected integer <= 65535, got 70000'],
  ['graphql:\n  path: graphql\n', 'mock.yaml: graphql.path: expected a path starting with / (no spaces, ? or #), got "graphql"'],
  ['graphql:\n  schema: 42\n', 'mock.yaml: graphql.schema: expected string or array, got 42'],
  ['graphql:\n  schema: [a.graphql, ""]\n', 'mock.yaml: graphql.schema[1]: expected a non-empty string, got ""'],
  [
    'graphql:\n  max_depht: 3\n',
    'mock.yaml: graphql.max_depht: unknown key (did you mean max_depth?); expected one of schema, path, introspection, max_depth, max_complexity, max_aliases, max_tokens, max_body_bytes, max_response_bytes, max_cache_mb, max_store_mb, answer_cache_bytes, list_length, subscriptions, overrides, tls, http_version',
  ],
  ['graphql:\n  max_depth: 0\n', 'mock.yaml: graphql.max_depth: expected integer >= 1, got 0'],
  ['graphql:\n  list_length: { min: -1 }\n', 'mock.yaml: graphql.list_length.min: expected integer >= 0, got -1'],
  ['graphql:\n  list_length: { min: 5, max: 3 }\n', 'mock.yaml: graphql.list_length.min: expected integer <= graphql.list_length.max (3), got 5'],
  ['graphql:\n  list_length: { min: 5 }\n', 'mock.yaml: graphql.list_length.min: expected integer <= graphql.list_length.max (4), got 5'],
  ['graphql:\n  subscriptions: { interval_ms: 0 }\n', 'mock.yaml: graphql.subscriptions.interval_ms: expected integer >= 1, got 0'],
  ['graphql:\n  subscriptions: { interval_ms: 3600001 }\n', 'mock.yaml: graphql.subscriptions.interval_ms: expected number <= 3600000, got 3600001'],
  ['graphql:\n  overrides: { User: 1 }\n', 'mock.yaml: graphql.overrides.User: expected object, got 1'],
  ['logging:\n  max_files: 0\n', 'mock.yaml: logging.max_files: expected integer >= 1, got 0'],
  ['logging:\n  file: ""\n', 'mock.yaml: logging.file: expected a non-empty string, got ""'],
  ['proxy:\n  upstream_url: localhost:8080\n', 'mock.yaml: proxy.upstream_url: expected an http(s) URL, got "localhost:8080"'],
  ['proxy:\n  timeout_seconds: 0\n', 'mock.yaml: proxy.timeout_seconds: expected number > 0, got 0'],
  ['metrics:\n  port: -1\n', 'mock.yaml: metrics.port: expected integer >= 0, got -1'],
  ['observability:\n  chaos: true\n', 'mock.yaml: observability.chaos: expected object, got true'],
  [
    'observability:\n  chaos:\n    fault_injection: { connection_error_kind: rst }\n',
    'mock.yaml: observability.chaos.fault_injection.connection_error_kind: expected one of http_503, tcp_reset, tcp_close, got "rst"',
  ],
  [
    'observability:\n  chaos:\n    fault_injection: { error_pattern: { type: wave } }\n',
    'mock.yaml: observability.chaos.fault_injection.error_pattern.type: expected one of burst, random, sequential, got "wave"',
  ],
  [
    'observability:\n  chaos:\n    fault_injection: { http_errors: [500, 5030] }\n',
    'mock.yaml: observability.chaos.fault_injection.http_errors[1]: expected integer <= 599, got 5030',
  ],
  [
    'observability:\n  chaos:\n    fault_injection:\n      request_matcher: { headers: [{ value: x }] }\n',
    'mock.yaml: observability.chaos.fault_injection.request_matcher.headers[0].name: required key is missing',
  ],
  [
    'observability:\n  chaos:\n    rate_limit: { requests_per_second: 0 }\n',
    'mock.yaml: observability.chaos.rate_limit.requests_per_second: expected number >= 0.001, got 0',
  ],
  // delays are timers: a bound of one hour, whichever key sets one
  [
    'observability:\n  chaos:\n    fault_injection: { enabled: true, timeout_ms: 2147483648 }\n',
    'mock.yaml: observability.chaos.fault_injection.timeout_ms: expected number <= 3600000, got 2147483648',
  ],
  ['chaos:\n  latency_max_ms: 1e10\n', 'mock.yaml: chaos.latency_max_ms: expected number <= 3600000, got 10000000000'],
  ['proxy:\n  timeout_seconds: 1e9\n', 'mock.yaml: proxy.timeout_seconds: expected number <= 3600, got 1000000000'],
  [
    'core:\n  routes:\n    - { path: /a, latency: { enabled: true, distribution: lognormal, p50_ms: 10, p99_ms: 1e308 } }\n',
    'mock.yaml: core.routes[0].latency.p99_ms: expected number <= 3600000, got 1e+308',
  ],
  [
    'observability:\n  chaos:\n    rate_limit: { enabled: true, burst_size: 1e300 }\n',
    'mock.yaml: observability.chaos.rate_limit.burst_size: expected integer <= 1000000, got 1e+300',
  ],
  [
    'observability:\n  chaos:\n    traffic_shaping: { packet_loss_percent: 150 }\n',
    'mock.yaml: observability.chaos.traffic_shaping.packet_loss_percent: expected number <= 100, got 150',
  ],
  [
    'observability:\n  chaos:\n    circuit_breaker: { failure_threshold: 0 }\n',
    'mock.yaml: observability.chaos.circuit_breaker.failure_threshold: expected integer >= 1, got 0',
  ],
  [
    'observability:\n  chaos:\n    bulkhead: { max_queue: 1 }\n',
    'mock.yaml: observability.chaos.bulkhead.max_queue: unknown key (did you mean max_queue_size?); expected one of enabled, max_concurrent_requests, max_queue_size',
  ],
  ['chaos:\n  failure_rate: 1.5\n', 'mock.yaml: chaos.failure_rate: expected number <= 1, got 1.5'],
  ['chaos:\n  failure_status_codes: [abc]\n', 'mock.yaml: chaos.failure_status_codes[0]: expected integer, got "abc"'],
  [
    'chaos:\n  latency_max: 5\n',
    'mock.yaml: chaos.latency_max: unknown key (did you mean latency_max_ms?); expected one of latency_enabled, latency_min_ms, latency_max_ms, failures_enabled, failure_rate, failure_status_codes',
  ],
  ['reality_continuum:\n  default_ratio: 1.5\n', 'mock.yaml: reality_continuum.default_ratio: expected number <= 1, got 1.5'],
  [
    'reality_continuum:\n  transition_mode: gradual\n',
    'mock.yaml: reality_continuum.transition_mode: expected one of manual, time_based, scheduled, got "gradual"',
  ],
  [
    'reality_continuum:\n  time_schedule: { curve: cubic }\n',
    'mock.yaml: reality_continuum.time_schedule.curve: expected one of linear, exponential, sigmoid, got "cubic"',
  ],
  ['reality_continuum:\n  routes: [{ ratio: 0.5 }]\n', 'mock.yaml: reality_continuum.routes[0].pattern: required key is missing'],
  [
    'reality_continuum:\n  merge_strategy: blend\n',
    'mock.yaml: reality_continuum.merge_strategy: expected one of field_level, weighted, body_blend, got "blend"',
  ],
  ['reality_continuum:\n  groups: { users: 2 }\n', 'mock.yaml: reality_continuum.groups.users: expected number <= 1, got 2'],
  ['proxy:\n  rules: [{ condition: "header[a]" }]\n', 'mock.yaml: proxy.rules[0].pattern: required key is missing'],
  ['proxy:\n  rules: [{ pattern: /x, upstream_url: ftp://x }]\n', 'mock.yaml: proxy.rules[0].upstream_url: expected an http(s) URL, got "ftp://x"'],
  [
    'time_travel:\n  initial_time: tomorrow\n',
    'mock.yaml: time_travel.initial_time: expected an ISO 8601 timestamp such as 2025-01-01T00:00:00Z, got "tomorrow"',
  ],
  ['time_travel:\n  scale_factor: 0\n', 'mock.yaml: time_travel.scale_factor: expected number > 0, got 0'],
  [
    'time_travel:\n  schedule: [{ at: "2025-01-01T00:00:00Z", advance_by: 1 hour }]\n',
    'mock.yaml: time_travel.schedule[0].advance_by: expected a duration such as 500ms, 30s, 10m, 1h or 2d, got "1 hour"',
  ],
  ['tenancy:\n  plans: [free]\n', 'mock.yaml: tenancy.plans: expected object, got ["free"]'],
  [
    'tenancy:\n  plans:\n    free: { quotas: { max_users: -1 } }\n',
    'mock.yaml: tenancy.plans.free.quotas.max_users: expected integer >= 0, got -1',
  ],
  [
    'tenancy:\n  plans:\n    free: { permissions: { can_fly: true } }\n',
    'mock.yaml: tenancy.plans.free.permissions.can_fly: unknown key; expected one of can_create_scenarios, can_execute_scenarios, can_view_observability, can_manage_resilience, can_use_advanced_features, can_integrate_external, can_use_ml_features, can_manage_users',
  ],
  [
    'tenancy:\n  plans:\n    pro: { permissions: { can_manage_users: 1 } }\n',
    'mock.yaml: tenancy.plans.pro.permissions.can_manage_users: expected boolean, got 1',
  ],
  ['conformance:\n  buffer_unique: "true"\n', 'mock.yaml: conformance.buffer_unique: expected boolean, got "true"'],
  ['ai:\n  rag_provider: openai\n', 'mock.yaml: ai.rag_provider: expected one of recorder, fixtures, got "openai"'],
  ['ai:\n  rules: [{ endpoint: pets, rules: x }]\n', `mock.yaml: ai.rules[0].endpoint: expected a route such as 'GET /pets/{petId}' or a path such as /pets (every method), got "pets"`],
  ['seed: 1.5\n', 'mock.yaml: seed: expected integer, got 1.5'],
  ['logging:\n  level: loud\n', 'mock.yaml: logging.level: expected one of error, warn, info, debug, trace, got "loud"'],
  ['logging:\n  format: xml\n', 'mock.yaml: logging.format: expected one of text, json, got "xml"'],
  ['build:\n  out_dir: ""\n', 'mock.yaml: build.out_dir: expected a non-empty string, got ""'],
];

t.test('schema errors are one line each: file, key path, expectation, value found', async (t) => {
  const cwd = t.testdir({});
  for (const [content, message] of cases) {
    writeFileSync(path.join(cwd, 'mock.yaml'), content);
    failsExactly(t, () => loadConfig({ cwd, env: {} }), 'MOCK_ERR_CONFIG_INVALID', message, JSON.stringify(content));
  }
});

t.test('every schema error of a file at once: in file order, once each, no anyOf/oneOf branch noise', async (t) => {
  const cwd = t.testdir({
    'mock.yaml': [
      'validation:',
      '  mode: nope',
      'server:',
      '  http_port: abc',
      '  htp_port: 1',
      'specs:',
      '  - 5',
      '  - { extra: 1, path: "" }',
      'auth:',
      '  schemes:',
      '    a: { jwt: { audience: 5 } }',
      'core:',
      '  stateful:',
      '    state_machines: [{ name: m, initial_state: s, states: [], transitions: [], resource_id_extract: { type: header } }]',
      '',
    ].join('\n'),
  });
  failsExactly(
    t,
    () => loadConfig({ cwd, env: {} }),
    'MOCK_ERR_CONFIG_INVALID',
    [
      'mock.yaml: validation.mode: expected one of off, warn, enforce, got "nope"',
      'mock.yaml: server.http_port: expected integer, got "abc"',
      'mock.yaml: server.htp_port: unknown key (did you mean http_port?); expected one of http_port, ws_port, grpc_port, graphql_port, bind, http_backend, http_version, workers, tls, shutdown_timeout_ms',
      'mock.yaml: specs[0]: expected string or object, got 5',
      'mock.yaml: specs[1].extra: unknown key; expected one of path, base_path',
      'mock.yaml: specs[1].path: expected a non-empty string, got ""',
      'mock.yaml: auth.schemes.a.jwt: expected one of secret and jwks_file, got {"audience":5,"require_expiry":false,"clock_tolerance_secon…',
      'mock.yaml: auth.schemes.a.jwt.audience: expected string or array, got 5',
      'mock.yaml: core.stateful.state_machines[0].resource_id_extract.name: required key is missing',
    ].join('\n'),
    'all errors',
  );
});

t.test('rules across keys are checked after merging, naming the key set last', async (t) => {
  const cwd = t.testdir({});
  const machine = (transitions) =>
    `core:\n  stateful:\n    state_machines:\n      - name: orders\n        initial_state: initial\n        states: [{ name: pending }]\n        resource_id_extract: { type: path_param, param: id }\n        transitions: ${transitions}\n`;
  const broken = [
    ['chaos:\n  latency_min_ms: 2000\n', 'mock.yaml: chaos.latency_min_ms: expected integer <= chaos.latency_max_ms (1000), got 2000'],
    [
      'reality_continuum:\n  enabled: true\n',
      'mock.yaml: reality_continuum.enabled: the reality continuum needs an upstream: set proxy.upstream_url in mock.yaml (or MOCK_PROXY_UPSTREAM, or --proxy-target)',
    ],
    [
      'proxy: { upstream_url: "http://up.example" }\nreality_continuum:\n  transition_mode: scheduled\n',
      'mock.yaml: reality_continuum.transition_mode: scheduled reads the ratio from time_schedule {start_time, end_time, start_ratio, end_ratio, curve}; add it',
    ],
    [
      'reality_continuum:\n  time_schedule: { start_time: "2030-01-02T00:00:00Z", end_time: "2030-01-01T00:00:00Z" }\n',
      'mock.yaml: reality_continuum.time_schedule.end_time: expected an instant after start_time (2030-01-02T00:00:00Z), got 2030-01-01T00:00:00Z',
    ],
    [
      'proxy:\n  rules:\n    - { pattern: /a, condition: "OR(header[a] == 1" }\n    - { pattern: /b }\n',
      [
        'mock.yaml: proxy.rules[0].upstream_url: a rule needs an upstream: give it upstream_url, or set proxy.upstream_url',
        'mock.yaml: proxy.rules[0].condition: expected "," or ")" in OR(...), found the end at position 18',
        'mock.yaml: proxy.rules[1].upstream_url: a rule needs an upstream: give it upstream_url, or set proxy.upstream_url',
      ].join('\n'),
    ],
    [
      'chaos:\n  latency_min_ms: 50\n  latency_max_ms: 10\n',
      'mock.yaml: chaos.latency_min_ms: expected integer <= chaos.latency_max_ms (10), got 50',
    ],
    [
      'time_travel:\n  schedule: [{ at: "2025-01-01T00:00:00Z" }]\n',
      'mock.yaml: time_travel.schedule[0]: expected exactly one of jump_to, advance_by, got neither',
    ],
    [
      'time_travel:\n  schedule:\n    - { at: "2025-01-01T00:00:00Z", advance_by: 1h }\n    - { at: "2025-01-02T00:00:00Z", advance_by: 1h, jump_to: "2026-01-01T00:00:00Z" }\n',
      'mock.yaml: time_travel.schedule[1]: expected exactly one of jump_to, advance_by, got both',
    ],
    [
      machine('[{ method: POST, path_pattern: /orders, from_state: initial, to_state: shipped }]'),
      'mock.yaml: core.stateful.state_machines[0].transitions[0].to_state: expected a state of orders (initial, pending), got "shipped"',
    ],
    [
      machine('[{ method: POST, from_state: initial, to_state: pending }, { from_state: pending, to_state: initial, after: 1h, path_pattern: /x }]'),
      [
        'mock.yaml: core.stateful.state_machines[0].transitions[0]: expected method and path_pattern (a request transition) or after (a timed one), got no path_pattern',
        'mock.yaml: core.stateful.state_machines[0].transitions[1].after: expected either after (a timed transition) or method and path_pattern (a request transition), got both',
      ].join('\n'),
    ],
    [
      machine('[{ from_state: pending, to_state: initial, after: 0s }, { from_state: pending, to_state: initial, after: 2h }]'),
      [
        'mock.yaml: core.stateful.state_machines[0].transitions[0].after: expected a duration above 0, got "0s"',
        'mock.yaml: core.stateful.state_machines[0].transitions[1].from_state: expected at most one timed transition from pending, got a second one (the first is transitions[0])',
      ].join('\n'),
    ],
    [
      machine('[{ method: post, path_pattern: /orders, from_state: initial, to_state: pending }, { method: POST, path_pattern: /orders, from_state: initial, to_state: initial }]'),
      'mock.yaml: core.stateful.state_machines[0].transitions[1]: expected one transition per method, path_pattern and from_state, got a second POST /orders from initial (the first is transitions[0])',
    ],
    [
      `${machine('[{ method: GET, path_pattern: "/orders/{id}x", from_state: initial, to_state: pending }]')}      - { name: orders, initial_state: a, states: [{ name: b }, { name: b }], resource_id_extract: { type: json_path, path: id }, transitions: [] }\n`,
      [
        'mock.yaml: core.stateful.state_machines[1].name: expected a name no other machine has, got "orders"',
        'mock.yaml: core.stateful.state_machines[1].states[1].name: expected a state orders does not list already, got "b"',
        'mock.yaml: core.stateful.state_machines[0].transitions[0].path_pattern: path segment "{id}x" must be plain text or one whole {param} (got "/orders/{id}x")',
        'mock.yaml: core.stateful.state_machines[1].resource_id_extract.path: the JSONPath must start with $, the document\'s root (RFC 9535 syntax, e.g. $.user.role, $.items[*].sku, $.items[?@.qty > 5], $..id)',
      ].join('\n'),
    ],
    [
      'chaos:\n  latency_min_ms: 50\n  latency_max_ms: 10\ntime_travel:\n  schedule: [{ at: "2025-01-01T00:00:00Z" }, { at: "2025-01-02T00:00:00Z" }]\n',
      [
        'mock.yaml: chaos.latency_min_ms: expected integer <= chaos.latency_max_ms (10), got 50',
        'mock.yaml: time_travel.schedule[0]: expected exactly one of jump_to, advance_by, got neither',
        'mock.yaml: time_travel.schedule[1]: expected exactly one of jump_to, advance_by, got neither',
      ].join('\n'),
    ],
  ];
  for (const [content, message] of broken) {
    writeFileSync(path.join(cwd, 'mock.yaml'), content);
    failsExactly(t, () => loadConfig({ cwd, env: {} }), 'MOCK_ERR_CONFIG_INVALID', message, JSON.stringify(content));
  }
  writeFileSync(path.join(cwd, 'mock.yaml'), 'chaos:\n  latency_max_ms: 10\n');
  t.throws(() => loadConfig({ cwd, env: {}, flags: [{ flag: 'chaos-latency-range', key: 'chaos.latency_min_ms', value: 20 }] }), {
    code: 'MOCK_ERR_FLAG_INVALID',
    message: '--chaos-latency-range: expected integer <= chaos.latency_max_ms (10), got 20',
  });
});

t.test('every section of the spec is accepted, including features not built yet', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': FULL });
  const { config } = loadConfig({ cwd, env: {} });
  t.equal(config.core.stateful.state_machines[0].transitions.length, 2);
  t.equal(config.observability.chaos.fault_injection.connection_error_kind, 'tcp_reset');
  t.equal(config.reality_continuum.merge_strategy, 'field_level', 'default filled in');
  t.equal(config.time_travel.scale_factor, 2);
  t.same(config.tenancy.plans.free.permissions, { can_create_scenarios: true, can_manage_users: false });
  t.same(
    config.admin.auth,
    { enabled: true, jwt_secret: 'x'.repeat(32), session_timeout_seconds: 1800, refresh_timeout_seconds: 604800, seed_dev_users: true, users: [{ username: 'ann', role: 'editor', password: 'pw' }] },
    'admin login settings',
  );
});

const FULL = `
server: { http_port: 3000, ws_port: 3001, grpc_port: 50051, bind: 0.0.0.0 }
admin: { enabled: true, port: 9080, embedded: false, mount_path: /admin, standalone: true, disable_api: false, auth: { enabled: true, jwt_secret: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, session_timeout_seconds: 1800, users: [{ username: ann, role: editor, password: pw }] } }
core:
  fixtures: { dir: ./fixtures, record_enabled: true, replay_enabled: true, record_get_only: true }
  max_connections: 500
  routes:
    - path: /orders
      method: POST
      fault_injection:
        enabled: true
        probability: 0.1
        fault_types:
          - { type: http_error, status_code: 503, message: busy }
          - { type: timeout, duration_ms: 2000 }
          - { type: connection_error, message: reset }
      latency: { enabled: true, probability: 0.5, distribution: normal, mean_ms: 100, std_dev_ms: 20, jitter_percent: 10 }
  stateful:
    enabled: true
    state_machines:
      - name: orders
        initial_state: initial
        resource_id_extract: { type: composite, extractors: [{ type: path_param, param: order_id }, { type: header, name: x-order }, { type: json_path, path: $.id }] }
        states:
          - { name: pending, response: { status_code: 201, body_template: { id: "{{resource_id}}", state: pending } } }
          - { name: processing, response: { status_code: 200, body_template: "processing {{resource_id}}" } }
        transitions:
          - { method: POST, path_pattern: /api/orders, from_state: initial, to_state: pending }
          - { method: PUT, path_pattern: "/api/orders/{order_id}/process", from_state: pending, to_state: processing }
http:
  cors: { enabled: true, allowed_origins: ["*"], allowed_methods: [GET], allowed_headers: [x-id] }
  keepalive_hint: true
  overrides: { rules: [{ name: r1, enabled: true, anything: else }], glob: "overrides/*.json" }
response:
  caching: { enabled: true, ttl_seconds: 60, max_size_mb: 10 }
grpc: { proto_dir: proto/, enable_reflection: false, excluded_services: [a.B], max_message_size: 1024, concurrency_limit: 8 }
websocket: { replay_file: ws.jsonl, max_connections: 10, message_timeout: 1000, heartbeat_interval: 1000 }
logging: { level: debug, format: json, file: logs/mock.log, max_size_mb: 1, max_files: 2 }
proxy: { enabled: true, upstream_url: "https://api.example.com", timeout_seconds: 5 }
metrics: { enabled: true, port: 9091 }
recorder: { enabled: true, db_path: rec.db }
observability:
  chaos:
    enabled: true
    profile: slow_3g
    fault_injection:
      enabled: true
      http_errors: [500, 503]
      http_error_probability: 0.1
      error_pattern: { type: burst, count: 3, interval_ms: 1000, probability: 0.5, sequence: [500, 502] }
      connection_errors: true
      connection_error_probability: 0.01
      connection_error_kind: tcp_reset
      timeout_errors: true
      timeout_ms: 5000
      timeout_probability: 0.01
      partial_responses: true
      partial_response_probability: 0.01
      payload_corruption: true
      payload_corruption_probability: 0.01
      corruption_type: bit_flip
      request_matcher:
        source_ips: [10.0.0.0/8, 127.0.0.1]
        headers: [{ name: X-Chaos }, { name: x-tenant, value: acme }]
        min_body_size_bytes: 0
        max_body_size_bytes: 1024
        chunked_only: false
    rate_limit: { enabled: true, requests_per_second: 100, burst_size: 200, per_ip: true, per_endpoint: false }
    traffic_shaping: { enabled: true, bandwidth_limit_bps: 0, packet_loss_percent: 1.5, max_connections: 100, connection_timeout_ms: 1000 }
    circuit_breaker: { enabled: true, failure_threshold: 5, success_threshold: 2, timeout_ms: 1000 }
    bulkhead: { enabled: true, max_concurrent_requests: 10, max_queue_size: 5 }
chaos: { latency_enabled: true, latency_min_ms: 10, latency_max_ms: 500 }
reality_continuum:
  enabled: true
  default_ratio: 0.2
  transition_mode: time_based
  time_schedule: { start_time: "2025-01-01T00:00:00Z", end_time: "2025-02-01T00:00:00+02:00", start_ratio: 0, end_ratio: 1, curve: sigmoid }
  routes: [{ pattern: /api/users/*, ratio: 0.5, group: users, enabled: true }]
time_travel:
  enabled: true
  initial_time: "2025-01-01T00:00:00Z"
  scale_factor: 2
  schedule: [{ at: "2025-01-01T01:00:00Z", advance_by: 2h }, { at: "2025-01-01T05:00:00.5Z", jump_to: "2025-06-01T00:00:00Z" }]
tenancy:
  plans:
    free:
      quotas: { max_scenarios: 1, max_concurrent_executions: 1, max_orchestrations: 1, max_templates: 1, max_requests_per_minute: 60, max_storage_mb: 10, max_users: 1, max_experiment_duration_secs: 60 }
      permissions: { can_create_scenarios: true, can_manage_users: false }
conformance: { buffer_unique: false }
ai: { enabled: true, rag_provider: recorder, endpoint: 'http://localhost:11434/v1', model: llama3.2, rules: [{ endpoint: 'GET /pets/{petId}', rules: [Names are French] }] }
`;

t.test('loose route entries accept extra keys (the compiler checks them)', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'http:\n  routes:\n    - { path: /x, latency: { enabled: true } }\n' });
  t.same(loadConfig({ cwd, env: {} }).config.http.routes, [{ path: '/x', latency: { enabled: true } }]);
});

t.test('response.caching: a TTL of a minute and 10 MiB unless set', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'response:\n  caching: { enabled: true }\n' });
  t.same(loadConfig({ cwd, env: {} }).config.response.caching, { enabled: true, ttl_seconds: 60, max_size_mb: 10 });
});

t.test('long values are shortened in messages', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': `server:\n  bind: [${'1,'.repeat(50)}1]\n` });
  t.throws(() => loadConfig({ cwd, env: {} }), { message: /^mock\.yaml: server\.bind: expected string, got \[1,1,.{40,60}…$/ });
});
