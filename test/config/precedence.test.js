import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { loadConfig } from '../../dist/src/config/index.js';

const flag = (name, key, value) => ({ flag: name, key, value });

// Directories with no config file in them or any parent (t.testdir() lives inside the project).
const scratch = mkdtempSync(path.join(tmpdir(), 'mock-precedence-'));
t.teardown(() => rmSync(scratch, { recursive: true }));
const bare = () => mkdtempSync(path.join(scratch, 'dir-'));

t.test("level 1, defaults only: every key has its default (the spec's) and source default", async (t) => {
  const cwd = bare();
  const { config, sources, file, projectDir } = loadConfig({ cwd, env: {} });
  t.equal(file, undefined);
  t.equal(projectDir, cwd);
  t.same(config, {
    server: { http_port: 3000, ws_port: 3001, grpc_port: 50051, graphql_port: 4000, bind: '0.0.0.0', workers: 1, shutdown_timeout_ms: 5000 },
    specs: [],
    validation: {
      mode: 'enforce',
      aggregate_errors: false,
      validate_responses: false,
      security: true,
      status_code: 400,
      error_body: 'documented',
      skip_admin_validation: true,
      overrides: {},
    },
    auth: { schemes: {} },
    response_template_expand: false,
    http: { max_body_bytes: 10485760, routes: [], cors: { enabled: true, allowed_origins: ['*'], credentials: true, max_age_seconds: 600, proxied: false }, keepalive_hint: false, streams: { items: 10, interval_ms: 1000 } },
    logging: { level: 'info', format: 'text', file: 'stdout', max_size_mb: 10, max_files: 5, redact: [], redact_credentials: true, request_lines_per_second: 50, bodies: { enabled: true, max_body_bytes: 65536, max_store_mb: 8 } },
    build: { out_dir: path.join(cwd, 'generated') },
    admin: { enabled: false, port: 9080, bind: '127.0.0.1', allowed_hosts: [], cors: { allowed_origins: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*', 'https://localhost:*', 'https://127.0.0.1:*', 'https://[::1]:*'] },
      embedded: false, mount_path: '/admin', standalone: true, disable_api: false,
      limits: { max_mocks: 1000, max_mock_bytes: 1048576, max_override_rules: 1000, max_log_subscribers: 32, max_chaos_profiles: 100, max_chaos_profile_bytes: 65536 },
      auth: { enabled: false, session_timeout_seconds: 900, refresh_timeout_seconds: 604800, seed_dev_users: true, users: [] },
    },
    core: {
      fixtures: {
        dir: path.join(cwd, 'fixtures'),
        record_enabled: false,
        replay_enabled: false,
        record_get_only: false,
        ignore_query_params: [],
        match_headers: [],
        match_body: false,
        sequence_end: 'repeat_last',
        max_sequence: 100,
        watch: true,
        max_recording_mb: 64,
        max_unsaved_mb: 64,
      },
      routes: [],
    },
    grpc: {
      proto_dir: path.join(cwd, 'proto'),
      enable_reflection: true,
      excluded_services: [],
      max_message_size: 4194304,
      concurrency_limit: 32,
      methods: [],
      stream: { count: 3, interval_ms: 100 },
      http_bridge: { enabled: false, port: 50052, max_body_bytes: 1048576, max_stream_messages: 1000 },
    },
    websocket: { routes: [], max_connections: 1000, message_timeout: 30000, heartbeat_interval: 30000, max_message_bytes: 1048576, max_buffered_bytes: 1048576 },
    graphql: {
      schema: [],
      path: '/graphql',
      introspection: true,
      max_depth: 15,
      max_complexity: 1000,
      max_aliases: 50,
      max_tokens: 10000,
      max_body_bytes: 1048576,
      max_response_bytes: 10485760,
      max_cache_mb: 32,
      max_store_mb: 64,
      answer_cache_bytes: 16777216,
      list_length: { min: 2, max: 4 },
      subscriptions: { interval_ms: 1000, max_events: 0, max_connections: 200, max_per_connection: 50, max_buffered_bytes: 1048576 },
      overrides: {},
    },
    proxy: { enabled: false, timeout_seconds: 30 },
    metrics: { enabled: false, port: 9090, bind: '127.0.0.1' },
    recorder: { enabled: false, db_path: path.join(cwd, 'recordings.db') },
    chaos: { latency_enabled: false, latency_min_ms: 0, latency_max_ms: 1000, failures_enabled: false, failure_rate: 0 },
    callbacks: { allowed_hosts: ['localhost', '127.0.0.0/8', '::1'], delay_ms: 0, delays: [], retries: 2, retry_delay_ms: 500, timeout_ms: 5000, webhooks: { schedules: [] } },
    conformance: { buffer_unique: true },
    ai: { enabled: false, timeout_ms: 3000, all_generated_routes: false, rules: [], rag_examples: 3, cache_max_mb: 8 },
    plugins: { dir: path.join(cwd, '.mock/plugins'), max_memory_mb: 50, max_execution_ms: 1000, disable_after: 5, sandbox: {}, middleware: [], request_validators: [], response_modifiers: [] },
    state: { store: 'memory', redis_url: 'redis://127.0.0.1:6379', redis_key_prefix: 'mock:' },
  });
  for (const optional of ['seed', 'response', 'observability', 'reality_continuum', 'time_travel', 'tenancy']) {
    t.notOk(optional in config, `${optional} has no default`);
  }
  t.ok(Object.values(sources).every((source) => source === 'default'));
  t.ok(Object.keys(sources).includes('server.ws_port') && Object.keys(sources).includes('core.fixtures.dir'), 'nested leaves have sources');
});

t.test('level 2, file over defaults', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'server: { ws_port: 4001 }\nadmin: { enabled: true }\n' });
  const { config, sources } = loadConfig({ cwd, env: {} });
  t.equal(config.server.ws_port, 4001);
  t.equal(sources['server.ws_port'], 'file');
  t.equal(config.server.http_port, 3000, 'a sibling keeps its default');
  t.equal(sources['server.http_port'], 'default');
  t.equal(config.admin.enabled, true);
  t.equal(config.admin.port, 9080);
});

t.test('level 3, environment over file', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'server: { ws_port: 4001 }\nadmin: { enabled: true, port: 9100 }\n' });
  const { config, sources } = loadConfig({ cwd, env: { MOCK_WS_PORT: '5001', MOCK_ADMIN_ENABLED: 'false' } });
  t.equal(config.server.ws_port, 5001);
  t.equal(sources['server.ws_port'], 'env');
  t.equal(config.admin.enabled, false, 'a false variable beats a true file value');
  t.equal(config.admin.port, 9100);
  t.equal(sources['admin.port'], 'file');
});

t.test('level 4, flags over environment', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'server: { ws_port: 4001 }\n' });
  const { config, sources } = loadConfig({
    cwd,
    env: { MOCK_WS_PORT: '5001', MOCK_ADMIN_ENABLED: 'true' },
    flags: [flag('ws-port', 'server.ws_port', 6001), flag('admin', 'admin.enabled', false)],
  });
  t.equal(config.server.ws_port, 6001);
  t.equal(sources['server.ws_port'], 'flag');
  t.equal(config.admin.enabled, false);
  t.equal(sources['admin.enabled'], 'flag');
});

t.test('all levels at once: flags > env > file > defaults, key by key', async (t) => {
  const cwd = t.testdir({
    'mock.yaml': [
      'server: { http_port: 4000, bind: 10.0.0.1 }',
      'validation: { mode: warn, status_code: 422, aggregate_errors: true }',
      'seed: 1',
      '',
    ].join('\n'),
  });
  const env = { MOCK_HTTP_PORT: '5000', MOCK_REQUEST_VALIDATION: 'off', MOCK_SEED: '2' };
  const flags = [flag('http-port', 'server.http_port', 6000), flag('validation-status', 'validation.status_code', 400)];

  const fileOnly = loadConfig({ cwd, env: {} });
  t.equal(fileOnly.config.server.http_port, 4000);
  t.equal(fileOnly.sources['server.http_port'], 'file');
  t.equal(fileOnly.config.validation.validate_responses, false);
  t.equal(fileOnly.sources['validation.validate_responses'], 'default', 'untouched key of a section set in the file');

  const withEnv = loadConfig({ cwd, env });
  t.equal(withEnv.config.server.http_port, 5000);
  t.equal(withEnv.sources['server.http_port'], 'env');
  t.equal(withEnv.config.server.bind, '10.0.0.1', 'sibling key stays from the file');
  t.equal(withEnv.sources['server.bind'], 'file');
  t.equal(withEnv.config.validation.mode, 'off');
  t.equal(withEnv.config.seed, 2);
  t.equal(withEnv.sources.seed, 'env');

  const all = loadConfig({ cwd, env, flags });
  t.equal(all.config.server.http_port, 6000);
  t.equal(all.sources['server.http_port'], 'flag');
  t.equal(all.config.validation.status_code, 400, 'a flag equal to the default still wins');
  t.equal(all.sources['validation.status_code'], 'flag');
  t.equal(all.config.validation.mode, 'off');
  t.equal(all.sources['validation.mode'], 'env');
  t.equal(all.config.validation.aggregate_errors, true);
  t.equal(all.sources['validation.aggregate_errors'], 'file');
  t.equal(all.sources['logging.level'], 'default');
});

t.test('a false flag overrides a true file value', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'response_template_expand: true\n' });
  const { config, sources } = loadConfig({ cwd, env: {}, flags: [flag('response-template-expand', 'response_template_expand', false)] });
  t.equal(config.response_template_expand, false);
  t.equal(sources.response_template_expand, 'flag');
});

t.test('lists are replaced whole; maps merge key by key', async (t) => {
  const cwd = t.testdir({
    'mock.yaml': 'specs: [a.yaml, b.yaml]\nvalidation:\n  overrides: { "GET /health": "off", "/api/admin/**": warn }\n',
    'a.yaml': '',
    'c.yaml': '',
  });
  const { config, sources } = loadConfig({ cwd, env: {}, flags: [flag('spec', 'specs', ['c.yaml'])] });
  t.same(config.specs, [{ path: path.join(cwd, 'c.yaml') }]);
  t.equal(sources.specs, 'flag');
  t.same(config.validation.overrides, { 'GET /health': 'off', '/api/admin/**': 'warn' });
  t.equal(sources['validation.overrides["GET /health"]'], 'file');
  t.equal(sources['validation.overrides["/api/admin/**"]'], 'file');
});

t.test('file paths resolve against the config file directory, flag paths against cwd', async (t) => {
  const root = t.testdir({
    project: {
      'mock.yaml': [
        'specs:',
        '  - ./api/pets.yaml',
        '  - { path: https://example.com/openapi.json, base_path: /v1 }',
        'build: { out_dir: out }',
        '',
      ].join('\n'),
      sub: {},
    },
  });
  const cwd = path.join(root, 'project', 'sub');
  const fromFile = loadConfig({ cwd, env: {} });
  t.equal(fromFile.file.file, path.join(root, 'project', 'mock.yaml'));
  t.equal(fromFile.projectDir, path.join(root, 'project'));
  t.same(fromFile.config.specs, [
    { path: path.join(root, 'project', 'api', 'pets.yaml') },
    { path: 'https://example.com/openapi.json', base_path: '/v1' },
  ]);
  t.equal(fromFile.config.build.out_dir, path.join(root, 'project', 'out'));

  const fromFlags = loadConfig({
    cwd,
    env: {},
    flags: [flag('spec', 'specs', ['local.yaml', 'HTTP://EXAMPLE.COM/a.yaml']), flag('out', 'build.out_dir', 'gen')],
  });
  t.same(fromFlags.config.specs, [{ path: path.join(cwd, 'local.yaml') }, { path: 'HTTP://EXAMPLE.COM/a.yaml' }]);
  t.equal(fromFlags.config.build.out_dir, path.join(cwd, 'gen'));
});

t.test('the default out_dir lives next to the config file', async (t) => {
  const root = t.testdir({ 'mock.yml': '', deeper: { er: {} } });
  const { config } = loadConfig({ cwd: path.join(root, 'deeper', 'er'), env: {} });
  t.equal(config.build.out_dir, path.join(root, 'generated'));
});

t.test('MOCK_CONFIG_FILE picks the file; relative paths in it resolve against its directory', async (t) => {
  const root = t.testdir({
    mock: { 'custom.yaml': 'specs: [api.yaml]\nserver: { http_port: 1234 }\n' },
    'mock.yaml': 'server: { http_port: 1 }\n',
  });
  const { config, file } = loadConfig({ cwd: root, env: { MOCK_CONFIG_FILE: 'mock/custom.yaml' } });
  t.same(file, { file: path.join(root, 'mock', 'custom.yaml'), via: 'env' });
  t.equal(config.server.http_port, 1234);
  t.same(config.specs, [{ path: path.join(root, 'mock', 'api.yaml') }]);
});

t.test('--config outranks MOCK_CONFIG_FILE', async (t) => {
  const root = t.testdir({ 'a.yaml': 'seed: 1\n', 'b.yaml': 'seed: 2\n' });
  const { config, file } = loadConfig({ cwd: root, env: { MOCK_CONFIG_FILE: 'b.yaml' }, configPath: 'a.yaml' });
  t.equal(config.seed, 1);
  t.equal(file.via, 'flag');
});

t.test('empty and comment-only files are empty configurations', async (t) => {
  for (const content of ['', '# nothing yet\n', '---\n']) {
    const cwd = t.testdir({ 'mock.yaml': content });
    t.equal(loadConfig({ cwd, env: {} }).config.server.http_port, 3000, JSON.stringify(content));
  }
});

t.test('custom routes pass through as written', async (t) => {
  const route = { method: 'GET', path: '/pets/{id}', match: { query: { kind: 'cat' } }, response: { status: 200, body: { id: 1 } } };
  const cwd = t.testdir({ 'mock.yaml': `http:\n  routes:\n    - ${JSON.stringify(route)}\n` });
  t.same(loadConfig({ cwd, env: {} }).config.http.routes, [route]);
});

t.test('invalid flag values name the flag', async (t) => {
  const cwd = bare();
  t.throws(() => loadConfig({ cwd, env: {}, flags: [flag('validation-status', 'validation.status_code', 999)] }), {
    code: 'MOCK_ERR_FLAG_INVALID',
    message: '--validation-status: expected integer <= 599, got 999',
  });
  t.throws(() => loadConfig({ cwd, env: {}, flags: [flag('host', 'server.bind', '')] }), {
    code: 'MOCK_ERR_FLAG_INVALID',
    message: '--host: expected a non-empty string, got ""',
  });
});

t.test('a bad file value is reported even when a higher layer overrides it', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'server: { http_port: abc }\n' });
  t.throws(() => loadConfig({ cwd, env: { MOCK_HTTP_PORT: '1' } }), {
    message: 'mock.yaml: server.http_port: expected integer, got "abc"',
  });
});

t.test('a config file found in a parent directory is named by its absolute path', async (t) => {
  const root = t.testdir({ 'mock.yaml': 'seed: x\n', a: {} });
  t.throws(() => loadConfig({ cwd: path.join(root, 'a'), env: {} }), {
    message: `${path.join(root, 'mock.yaml')}: seed: expected integer, got "x"`,
  });
  mkdirSync(path.join(root, 'b'));
  writeFileSync(path.join(root, 'b', '.mock.yml'), 'seed: y\n');
  t.throws(() => loadConfig({ cwd: root, env: {}, configPath: 'b/.mock.yml' }), {
    message: `${path.join('b', '.mock.yml')}: seed: expected integer, got "y"`,
  });
});
