import t from 'tap';
import { formatConfig, loadConfig } from '../../dist/src/config/index.js';

t.test('--print-config output: the effective YAML with a source comment per leaf', async (t) => {
  const cwd = t.testdir({
    'mock.yaml': 'specs: [api.yaml]\nserver: { http_port: 4000 }\nvalidation:\n  overrides: { "GET /health": "off" }\n',
  });
  const resolved = loadConfig({
    cwd,
    env: { MOCK_HTTP_HOST: '127.0.0.1', MOCK_REQUEST_VALIDATION: 'warn' },
    flags: [
      { flag: 'http-port', key: 'server.http_port', value: 8080 },
      { flag: 'seed', key: 'seed', value: 9 },
    ],
  });
  t.equal(
    formatConfig(resolved),
    [
      `# config file: ${cwd}/mock.yaml (found by search from the current directory)`,
      'server:',
      '  http_port: 8080 # from flag',
      '  ws_port: 3001 # from default',
      '  grpc_port: 50051 # from default',
      '  graphql_port: 4000 # from default',
      '  bind: 127.0.0.1 # from env',
      '  workers: 1 # from default',
      '  shutdown_timeout_ms: 5000 # from default',
      'specs: # from file',
      `  - path: ${cwd}/api.yaml`,
      'validation:',
      '  mode: warn # from env',
      '  aggregate_errors: false # from default',
      '  validate_responses: false # from default',
      '  security: true # from default',
      '  status_code: 400 # from default',
      '  error_body: documented # from default',
      '  skip_admin_validation: true # from default',
      '  overrides:',
      '    GET /health: off # from file',
      'auth:',
      '  schemes: {} # from default',
      'response_template_expand: false # from default',
      'http:',
      '  max_body_bytes: 10485760 # from default',
      '  routes: [] # from default',
      '  cors:',
      '    enabled: true # from default',
      '    allowed_origins: # from default',
      '      - "*"',
      '    credentials: true # from default',
      '    max_age_seconds: 600 # from default',
      '    proxied: false # from default',
      '  keepalive_hint: false # from default',
      '  streams:',
      '    items: 10 # from default',
      '    interval_ms: 1000 # from default',
      'seed: 9 # from flag',
      'logging:',
      '  level: info # from default',
      '  format: text # from default',
      '  file: stdout # from default',
      '  max_size_mb: 10 # from default',
      '  max_files: 5 # from default',
      '  redact: [] # from default',
      '  redact_credentials: true # from default',
      '  request_lines_per_second: 50 # from default',
      '  bodies:',
      '    enabled: true # from default',
      '    max_body_bytes: 65536 # from default',
      '    max_store_mb: 8 # from default',
      'build:',
      `  out_dir: ${cwd}/generated # from default`,
      'admin:',
      '  enabled: false # from default',
      '  port: 9080 # from default',
      '  bind: 127.0.0.1 # from default',
      '  allowed_hosts: [] # from default',
      '  cors:',
      '    allowed_origins: # from default',
      '      - http://localhost:*',
      '      - http://127.0.0.1:*',
      '      - http://[::1]:*',
      '  embedded: false # from default',
      '  mount_path: /admin # from default',
      '  standalone: true # from default',
      '  disable_api: false # from default',
      '  limits:',
      '    max_mocks: 1000 # from default',
      '    max_mock_bytes: 1048576 # from default',
      '    max_override_rules: 1000 # from default',
      '    max_log_subscribers: 32 # from default',
      '    max_chaos_profiles: 100 # from default',
      '    max_chaos_profile_bytes: 65536 # from default',
      '  auth:',
      '    enabled: false # from default',
      '    session_timeout_seconds: 900 # from default',
      '    refresh_timeout_seconds: 604800 # from default',
      '    seed_dev_users: true # from default',
      '    users: [] # from default',
      'core:',
      '  fixtures:',
      `    dir: ${cwd}/fixtures # from default`,
      '    record_enabled: false # from default',
      '    replay_enabled: false # from default',
      '    record_get_only: false # from default',
      '    ignore_query_params: [] # from default',
      '    match_headers: [] # from default',
      '    match_body: false # from default',
      '    sequence_end: repeat_last # from default',
      '    max_sequence: 100 # from default',
      '    watch: true # from default',
      '    max_recording_mb: 64 # from default',
      '    max_unsaved_mb: 64 # from default',
      '  routes: [] # from default',
      'grpc:',
      `  proto_dir: ${cwd}/proto # from default`,
      '  enable_reflection: true # from default',
      '  excluded_services: [] # from default',
      '  max_message_size: 4194304 # from default',
      '  concurrency_limit: 32 # from default',
      '  methods: [] # from default',
      '  stream:',
      '    count: 3 # from default',
      '    interval_ms: 100 # from default',
      '  http_bridge:',
      '    enabled: false # from default',
      '    port: 50052 # from default',
      '    max_body_bytes: 1048576 # from default',
      '    max_stream_messages: 1000 # from default',
      'websocket:',
      '  routes: [] # from default',
      '  max_connections: 1000 # from default',
      '  message_timeout: 30000 # from default',
      '  heartbeat_interval: 30000 # from default',
      '  max_message_bytes: 1048576 # from default',
      '  max_buffered_bytes: 1048576 # from default',
      'graphql:',
      '  schema: [] # from default',
      '  path: /graphql # from default',
      '  introspection: true # from default',
      '  max_depth: 15 # from default',
      '  max_complexity: 1000 # from default',
      '  max_aliases: 50 # from default',
      '  max_tokens: 10000 # from default',
      '  max_body_bytes: 1048576 # from default',
      '  max_response_bytes: 10485760 # from default',
      '  max_cache_mb: 32 # from default',
      '  max_store_mb: 64 # from default',
      '  answer_cache_bytes: 16777216 # from default',
      '  list_length:',
      '    min: 2 # from default',
      '    max: 4 # from default',
      '  subscriptions:',
      '    interval_ms: 1000 # from default',
      '    max_events: 0 # from default',
      '    max_connections: 200 # from default',
      '    max_per_connection: 50 # from default',
      '    max_buffered_bytes: 1048576 # from default',
      '  overrides: {} # from default',
      'proxy:',
      '  enabled: false # from default',
      '  timeout_seconds: 30 # from default',
      'metrics:',
      '  enabled: false # from default',
      '  port: 9090 # from default',
      '  bind: 127.0.0.1 # from default',
      'recorder:',
      '  enabled: false # from default',
      `  db_path: ${cwd}/recordings.db # from default`,
      'callbacks:',
      '  allowed_hosts: # from default',
      '    - localhost',
      '    - 127.0.0.0/8',
      '    - ::1',
      '  delay_ms: 0 # from default',
      '  delays: [] # from default',
      '  retries: 2 # from default',
      '  retry_delay_ms: 500 # from default',
      '  timeout_ms: 5000 # from default',
      '  webhooks:',
      '    schedules: [] # from default',
      'chaos:',
      '  latency_enabled: false # from default',
      '  latency_min_ms: 0 # from default',
      '  latency_max_ms: 1000 # from default',
      '  failures_enabled: false # from default',
      '  failure_rate: 0 # from default',
      'conformance:',
      '  buffer_unique: true # from default',
      'ai:',
      '  enabled: false # from default',
      '  timeout_ms: 3000 # from default',
      '  all_generated_routes: false # from default',
      '  rules: [] # from default',
      '  rag_examples: 3 # from default',
      '  cache_max_mb: 8 # from default',
      'plugins:',
      `  dir: ${cwd}/.mock/plugins # from default`,
      '  max_memory_mb: 50 # from default',
      '  max_execution_ms: 1000 # from default',
      '  disable_after: 5 # from default',
      '  sandbox: {} # from default',
      '  middleware: [] # from default',
      '  request_validators: [] # from default',
      '  response_modifiers: [] # from default',
      'state:',
      '  store: memory # from default',
      '  redis_url: redis://127.0.0.1:6379 # from default',
      '  redis_key_prefix: "mock:" # from default',
      '',
    ].join('\n'),
  );
});

t.test('without a config file the header says so and empty maps print inline', async (t) => {
  const cwd = t.testdir({});
  const text = formatConfig(loadConfig({ cwd, env: {}, configPath: undefined, flags: [] }));
  t.match(text, /^# (no config file found|config file: .*)\n/);
  t.match(text, /\n {2}overrides: \{\} # from default\n/);
  t.match(text, /\nspecs: \[\] # from default\n/);
});

t.test('deprecated keys in use are listed after the YAML', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'chaos:\n  failure_rate: 0.5\nresponse:\n  template_expand: true\ntenancy:\n  plans: {}\n' });
  const text = formatConfig(loadConfig({ cwd, env: { MOCK_GRPC_PORT: '50052' } }));
  t.match(text, '\n  grpc_port: 50052 # from env\n');
  t.match(text, '\nresponse_template_expand: true # from file\nresponse:\n  template_expand: true # from file\n', 'schema order');
  t.ok(
    text.endsWith(
      [
        '# response.template_expand is deprecated: use response_template_expand',
        '# chaos.failure_rate is deprecated: use observability.chaos.fault_injection.http_error_probability',
        '',
      ].join('\n'),
    ),
    text,
  );
});

t.test('credentials are not printed', async (t) => {
  const secret = 's3cr3t-s3cr3t-s3cr3t-s3cr3t-s3cr3t';
  const cwd = t.testdir({
    'mock.yaml': `admin:\n  management_token: tok-0123456789abcdef\n  auth: { jwt_secret: ${secret}, session_timeout_seconds: 1800, users: [{ username: ann, role: admin, password: hunter2 }] }\n`,
  });
  const text = formatConfig(loadConfig({ cwd, env: {} }));
  t.notMatch(text, /s3cr3t|hunter2|tok-0123/);
  t.match(text, '  management_token: <redacted> # from file\n');
  t.match(text, '\n    jwt_secret: <redacted> # from file\n');
  t.match(text, '\n    session_timeout_seconds: 1800 # from file\n');
  t.match(text, 'password: <redacted>');
});

t.test("state.redis_url's password is not printed", async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'state: { store: redis }\n' });
  const text = formatConfig(loadConfig({ cwd, env: { MOCK_REDIS_URL: 'redis://app:pa55word@redis.internal:6380/1' } }));
  t.notMatch(text, /pa55word/);
  t.match(text, "  redis_url: redis://app:[redacted]@redis.internal:6380/1 # from env\n");
});
