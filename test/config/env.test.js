import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ENV_VARIABLES, loadConfig } from '../../dist/src/config/index.js';

// Outside the project, so no mock.yaml of a parent directory is found.
const cwd = mkdtempSync(path.join(tmpdir(), 'mock-env-'));
t.teardown(() => rmSync(cwd, { recursive: true }));
const load = (env) => loadConfig({ cwd, env });

/** Reads a dotted key of the effective configuration. */
const read = (config, key) => key.split('.').reduce((node, segment) => node?.[segment], config);

t.test('the table maps every variable of the spec to its key and type', async (t) => {
  t.same(
    ENV_VARIABLES.map(({ name, key, type, invert }) => [name, key, invert ? `inverted ${type}` : type]),
    [
      ['MOCK_HTTP_PORT', 'server.http_port', 'integer'],
      ['MOCK_HTTP_HOST', 'server.bind', 'string'],
      ['MOCK_HTTP_BACKEND', 'server.http_backend', 'string'],
      ['MOCK_HTTP_VERSION', 'server.http_version', 'string'],
      ['MOCK_WORKERS', 'server.workers', 'count'],
      ['MOCK_TLS_CERT', 'server.tls.cert', 'string'],
      ['MOCK_TLS_KEY', 'server.tls.key', 'string'],
      ['MOCK_STATE_STORE', 'state.store', 'string'],
      ['MOCK_REDIS_URL', 'state.redis_url', 'string'],
      ['MOCK_REDIS_KEY_PREFIX', 'state.redis_key_prefix', 'string'],
      ['MOCK_SCENARIO_REGISTRY', 'scenarios.registry', 'string'],
      ['MOCK_WS_PORT', 'server.ws_port', 'integer'],
      ['MOCK_GRPC_PORT', 'server.grpc_port', 'integer'],
      ['MOCK_GRPC_PROTO_DIR', 'grpc.proto_dir', 'string'],
      ['MOCK_GRAPHQL_PORT', 'server.graphql_port', 'integer'],
      ['MOCK_GRAPHQL_SCHEMA', 'graphql.schema', 'paths'],
      ['MOCK_ADMIN_ENABLED', 'admin.enabled', 'boolean'],
      ['MOCK_ADMIN_PORT', 'admin.port', 'integer'],
      ['MOCK_ADMIN_HOST', 'admin.bind', 'string'],
      ['MOCK_ADMIN_API_ENABLED', 'admin.disable_api', 'inverted boolean'],
      ['MOCK_ADMIN_AUTH_ENABLED', 'admin.auth.enabled', 'boolean'],
      ['JWT_SECRET', 'admin.auth.jwt_secret', 'string'],
      ['MOCK_DISABLE_DEV_SEED_USERS', 'admin.auth.seed_dev_users', 'inverted boolean'],
      ['MOCK_MANAGEMENT_TOKEN', 'admin.management_token', 'string'],
      ['MOCK_REQUEST_VALIDATION', 'validation.mode', 'string'],
      ['MOCK_RESPONSE_VALIDATION', 'validation.validate_responses', 'boolean'],
      ['MOCK_RESPONSE_TEMPLATE_EXPAND', 'response_template_expand', 'boolean'],
      ['MOCK_LATENCY_ENABLED', 'chaos.latency_enabled', 'boolean'],
      ['MOCK_FIXTURES_DIR', 'core.fixtures.dir', 'string'],
      ['MOCK_WS_REPLAY_FILE', 'websocket.replay_file', 'string'],
      ['MOCK_LOG_LEVEL', 'logging.level', 'string'],
      ['MOCK_PROXY_UPSTREAM', 'proxy.upstream_url', 'string'],
      ['MOCK_RATE_LIMIT_ENABLED', 'observability.chaos.rate_limit.enabled', 'boolean'],
      ['MOCK_METRICS_HOST', 'metrics.bind', 'string'],
      ['MOCK_HTTP_CORS', 'http.cors.enabled', 'boolean'],
      ['MOCK_HTTP_KEEPALIVE_HINT', 'http.keepalive_hint', 'boolean'],
      ['MOCK_HTTP_OVERRIDES', 'http.overrides.rules', 'json'],
      ['MOCK_HTTP_OVERRIDES_GLOB', 'http.overrides.glob', 'string'],
      ['MOCK_AI_ENABLED', 'ai.enabled', 'boolean'],
      ['MOCK_AI_ENDPOINT', 'ai.endpoint', 'string'],
      ['MOCK_AI_MODEL', 'ai.model', 'string'],
      ['MOCK_AI_API_KEY', 'ai.api_key', 'string'],
      ['MOCK_RAG_PROVIDER', 'ai.rag_provider', 'string'],
      ['MOCK_CONFORMANCE_BUFFER_UNIQUE', 'conformance.buffer_unique', 'boolean'],
      ['MOCK_SEED', 'seed', 'integer'],
    ],
  );
});

const boolError = (name, raw) => `${name}: expected boolean (true, false, 1 or 0), got ${JSON.stringify(raw)}`;

/**
 * Per variable: good values with the value they give its key, bad values with the exact message.
 * Paths are resolved against cwd (env values are relative to where the command runs); any
 * non-empty path is valid (an empty or blank variable is unset, see below), so paths have no bad values.
 */
const cases = {
  MOCK_HTTP_PORT: {
    good: [
      ['8080', 8080],
      [' 0 ', 0],
    ],
    bad: [
      ['x', 'MOCK_HTTP_PORT: expected integer, got "x"'],
      ['80.5', 'MOCK_HTTP_PORT: expected integer, got "80.5"'],
      ['1e3', 'MOCK_HTTP_PORT: expected integer, got "1e3"'],
      ['70000', 'MOCK_HTTP_PORT: expected integer <= 65535, got 70000'],
      ['-1', 'MOCK_HTTP_PORT: expected integer >= 0, got -1'],
    ],
  },
  MOCK_HTTP_HOST: {
    good: [
      ['127.0.0.1', '127.0.0.1'],
      ['::1', '::1'],
    ],
    bad: [['local host', 'MOCK_HTTP_HOST: expected a host name or IP address without spaces, got "local host"']],
  },
  MOCK_HTTP_BACKEND: {
    good: [
      ['node', 'node'],
      ['uws', 'uws'],
      ['auto', 'auto'],
    ],
    bad: [['express', 'MOCK_HTTP_BACKEND: expected one of auto, uws, node, got "express"']],
  },
  MOCK_HTTP_VERSION: {
    good: [['2', '2']],
    bad: [['3', 'MOCK_HTTP_VERSION: expected 1.1, 2 or auto (quoted in YAML: "2", "1.1"), got "3"']],
  },
  MOCK_WORKERS: {
    good: [
      ['4', 4],
      ['auto', 'auto'],
      ['1', 1],
    ],
    bad: [
      ['0', 'MOCK_WORKERS: expected a number of workers from 1 to 256, or auto, got 0'],
      ['all', 'MOCK_WORKERS: expected a number of workers from 1 to 256, or auto, got "all"'],
    ],
  },
  MOCK_TLS_CERT: {
    good: [['certs/localhost.pem', path.join(cwd, 'certs/localhost.pem')]],
    bad: [],
  },
  MOCK_TLS_KEY: {
    good: [['certs/localhost-key.pem', path.join(cwd, 'certs/localhost-key.pem')]],
    bad: [],
  },
  MOCK_STATE_STORE: {
    good: [['redis', 'redis'], ['memory', 'memory']],
    bad: [['postgres', 'MOCK_STATE_STORE: expected one of memory, redis, got "postgres"']],
  },
  MOCK_REDIS_URL: {
    good: [['redis://127.0.0.1:6380/2', 'redis://127.0.0.1:6380/2']],
    bad: [['localhost:6379', 'MOCK_REDIS_URL: expected a redis:// or rediss:// URL such as redis://localhost:6379/0, got "localhost:6379"']],
  },
  MOCK_REDIS_KEY_PREFIX: {
    good: [['staging:', 'staging:']],
    bad: [['a b', 'MOCK_REDIS_KEY_PREFIX: expected a key prefix without spaces, got "a b"']],
  },
  MOCK_SCENARIO_REGISTRY: {
    good: [['http://127.0.0.1:4873/', 'http://127.0.0.1:4873/']],
    bad: [['npm.example.com', 'MOCK_SCENARIO_REGISTRY: expected an http:// or https:// URL of an npm registry such as https://registry.npmjs.org/, got "npm.example.com"']],
  },
  MOCK_WS_PORT: {
    good: [['4001', 4001]],
    bad: [
      ['ws', 'MOCK_WS_PORT: expected integer, got "ws"'],
      ['65536', 'MOCK_WS_PORT: expected integer <= 65535, got 65536'],
    ],
  },
  MOCK_GRPC_PORT: {
    good: [['50052', 50052]],
    bad: [
      ['5.5', 'MOCK_GRPC_PORT: expected integer, got "5.5"'],
      ['-2', 'MOCK_GRPC_PORT: expected integer >= 0, got -2'],
    ],
  },
  MOCK_ADMIN_ENABLED: {
    good: [
      ['true', true],
      ['1', true],
      ['FALSE', false],
    ],
    bad: [['on', boolError('MOCK_ADMIN_ENABLED', 'on')]],
  },
  MOCK_ADMIN_PORT: { good: [['9081', 9081]], bad: [['admin', 'MOCK_ADMIN_PORT: expected integer, got "admin"']] },
  MOCK_ADMIN_HOST: { good: [['0.0.0.0', '0.0.0.0'], ['::1', '::1']], bad: [['a b', 'MOCK_ADMIN_HOST: expected a host name or IP address without spaces, got "a b"']] },
  MOCK_METRICS_HOST: { good: [['0.0.0.0', '0.0.0.0']], bad: [['a b', 'MOCK_METRICS_HOST: expected a host name or IP address without spaces, got "a b"']] },
  MOCK_ADMIN_API_ENABLED: {
    good: [
      ['false', true],
      ['0', true],
      ['true', false],
      ['1', false],
    ],
    bad: [['disabled', boolError('MOCK_ADMIN_API_ENABLED', 'disabled')]],
  },
  MOCK_ADMIN_AUTH_ENABLED: { good: [['true', true], ['0', false]], bad: [['yes', boolError('MOCK_ADMIN_AUTH_ENABLED', 'yes')]] },
  JWT_SECRET: {
    good: [['0123456789abcdef0123456789abcdef', '0123456789abcdef0123456789abcdef']],
    bad: [['short', 'JWT_SECRET: expected a string of at least 32 characters, got a value of 5 characters (not shown)']],
  },
  MOCK_DISABLE_DEV_SEED_USERS: { good: [['true', false], ['false', true]], bad: [['sure', boolError('MOCK_DISABLE_DEV_SEED_USERS', 'sure')]] },
  MOCK_MANAGEMENT_TOKEN: {
    good: [['tok-0123456789abcdef', 'tok-0123456789abcdef']],
    bad: [['abc', 'MOCK_MANAGEMENT_TOKEN: expected a string of at least 16 characters, got a value of 3 characters (not shown)']],
  },
  MOCK_REQUEST_VALIDATION: {
    good: [
      ['warn', 'warn'],
      ['off', 'off'],
      ['enforce', 'enforce'],
    ],
    bad: [['maybe', 'MOCK_REQUEST_VALIDATION: expected one of off, warn, enforce, got "maybe"']],
  },
  MOCK_RESPONSE_VALIDATION: {
    good: [
      ['true', true],
      ['TRUE', true],
      ['1', true],
      ['0', false],
    ],
    bad: [['yes', boolError('MOCK_RESPONSE_VALIDATION', 'yes')]],
  },
  MOCK_RESPONSE_TEMPLATE_EXPAND: {
    good: [
      ['True', true],
      ['false', false],
      ['0', false],
    ],
    bad: [['2', boolError('MOCK_RESPONSE_TEMPLATE_EXPAND', '2')]],
  },
  MOCK_LATENCY_ENABLED: {
    good: [
      ['1', true],
      ['false', false],
    ],
    bad: [['sometimes', boolError('MOCK_LATENCY_ENABLED', 'sometimes')]],
  },
  MOCK_FIXTURES_DIR: {
    good: [
      ['recorded', path.join(cwd, 'recorded')],
      ['/abs/fixtures', '/abs/fixtures'],
    ],
    bad: [],
  },
  MOCK_GRAPHQL_PORT: {
    good: [
      ['4100', 4100],
      ['0', 0],
    ],
    bad: [
      ['four', 'MOCK_GRAPHQL_PORT: expected integer, got "four"'],
      ['65536', 'MOCK_GRAPHQL_PORT: expected integer <= 65535, got 65536'],
    ],
  },
  // a list of files or globs, separated as in PATH (globs use commas: {a,b}.graphql); each resolved against cwd
  MOCK_GRAPHQL_SCHEMA: {
    good: [
      ['schema.graphql', [path.join(cwd, 'schema.graphql')]],
      [['a.graphql', 'graphql/{b,c}.graphql', ''].join(path.delimiter), [path.join(cwd, 'a.graphql'), path.join(cwd, 'graphql', '{b,c}.graphql')]],
    ],
    bad: [],
  },
  MOCK_GRPC_PROTO_DIR: { good: [['protos', path.join(cwd, 'protos')]], bad: [] },
  MOCK_WS_REPLAY_FILE: { good: [['ws/replay.jsonl', path.join(cwd, 'ws', 'replay.jsonl')]], bad: [] },
  MOCK_LOG_LEVEL: {
    good: [
      ['debug', 'debug'],
      ['trace', 'trace'],
      ['error', 'error'],
    ],
    bad: [['loud', 'MOCK_LOG_LEVEL: expected one of error, warn, info, debug, trace, got "loud"']],
  },
  MOCK_PROXY_UPSTREAM: {
    good: [
      ['https://api.example.com', 'https://api.example.com'],
      ['http://localhost:8080/v1', 'http://localhost:8080/v1'],
    ],
    bad: [
      ['api.example.com', 'MOCK_PROXY_UPSTREAM: expected an http(s) URL, got "api.example.com"'],
      ['ftp://files', 'MOCK_PROXY_UPSTREAM: expected an http(s) URL, got "ftp://files"'],
    ],
  },
  MOCK_RATE_LIMIT_ENABLED: {
    good: [
      ['true', true],
      ['0', false],
    ],
    bad: [['100', boolError('MOCK_RATE_LIMIT_ENABLED', '100')]],
  },
  MOCK_HTTP_CORS: {
    good: [
      ['false', false],
      ['0', false],
      ['1', true],
    ],
    bad: [['off', boolError('MOCK_HTTP_CORS', 'off')]],
  },
  MOCK_HTTP_KEEPALIVE_HINT: {
    good: [
      ['1', true],
      ['0', false],
      ['true', true],
    ],
    bad: [['yes', boolError('MOCK_HTTP_KEEPALIVE_HINT', 'yes')]],
  },
  MOCK_HTTP_OVERRIDES: {
    good: [
      ['[]', []],
      ['[{"name":"slow-login","enabled":true,"path":"/login"}]', [{ name: 'slow-login', enabled: true, path: '/login' }]],
    ],
    bad: [
      ['{"name":"x"}', 'MOCK_HTTP_OVERRIDES: expected array, got {"name":"x"}'],
      ['[{"enabled":true}]', 'MOCK_HTTP_OVERRIDES[0].name: required key is missing'],
      ['[{"name":"x","enabled":"yes"}]', 'MOCK_HTTP_OVERRIDES[0].enabled: expected boolean, got "yes"'],
    ],
  },
  MOCK_HTTP_OVERRIDES_GLOB: { good: [['overrides/*.json', path.join(cwd, 'overrides', '*.json')]], bad: [] },
  MOCK_AI_ENABLED: { good: [['true', true]], bad: [['yes', boolError('MOCK_AI_ENABLED', 'yes')]] },
  MOCK_AI_ENDPOINT: {
    good: [['http://localhost:11434/v1', 'http://localhost:11434/v1']],
    bad: [['localhost:11434', 'MOCK_AI_ENDPOINT: expected the base URL of an OpenAI-compatible API, such as http://localhost:11434/v1, got "localhost:11434"']],
  },
  MOCK_AI_MODEL: { good: [['llama3.2', 'llama3.2']], bad: [] },
  // a credential: no bad value, and an error never shows one (x-secret)
  MOCK_AI_API_KEY: { good: [['sk-123', 'sk-123']], bad: [] },
  MOCK_RAG_PROVIDER: { good: [['fixtures', 'fixtures']], bad: [['openai', 'MOCK_RAG_PROVIDER: expected one of recorder, fixtures, got "openai"']] },
  MOCK_CONFORMANCE_BUFFER_UNIQUE: {
    good: [
      ['false', false],
      ['1', true],
    ],
    bad: [['unique', boolError('MOCK_CONFORMANCE_BUFFER_UNIQUE', 'unique')]],
  },
  MOCK_SEED: {
    good: [
      ['42', 42],
      ['-7', -7],
    ],
    bad: [
      ['abc', 'MOCK_SEED: expected integer, got "abc"'],
      ['99999999999999999999', 'MOCK_SEED: expected integer, got "99999999999999999999"'],
    ],
  },
};

for (const variable of ENV_VARIABLES) {
  t.test(variable.name, async (t) => {
    const { good, bad } = cases[variable.name];
    t.ok(good.length > 0, 'has good values');
    for (const [raw, expected] of good) {
      const { config, sources } = load({ [variable.name]: raw });
      t.same(read(config, variable.key), expected, `${variable.name}=${JSON.stringify(raw)} sets ${variable.key}`);
      t.equal(sources[variable.key], 'env', 'source env');
    }
    for (const [raw, message] of bad) {
      t.throws(() => load({ [variable.name]: raw }), { code: 'MOCK_ERR_CONFIG_INVALID', message }, `${variable.name}=${raw}`);
    }
  });
}

t.test('every variable of the table has cases', async (t) => {
  t.same(Object.keys(cases).sort(), ENV_VARIABLES.map((v) => v.name).sort());
});

t.test('MOCK_HTTP_OVERRIDES that is not JSON names the variable and the parse error', async (t) => {
  t.throws(() => load({ MOCK_HTTP_OVERRIDES: '[{"name":' }), {
    code: 'MOCK_ERR_CONFIG_INVALID',
    message: /^MOCK_HTTP_OVERRIDES: expected a JSON array of override rules, got "\[\{\\"name\\":" \(.+\)$/,
  });
});

t.test('a variable of a nested section creates the section', async (t) => {
  const { config, sources } = load({ MOCK_RATE_LIMIT_ENABLED: 'true' });
  t.same(config.observability, { chaos: { rate_limit: { enabled: true } } });
  t.equal(sources['observability.chaos.rate_limit.enabled'], 'env');
});

t.test('an empty variable counts as unset', async (t) => {
  const { config, sources } = load({ MOCK_HTTP_PORT: '', MOCK_HTTP_HOST: '  ', MOCK_HTTP_OVERRIDES: '' });
  t.equal(config.server.http_port, 3000);
  t.equal(config.server.bind, '0.0.0.0');
  t.equal(config.http.overrides, undefined);
  t.equal(sources['server.http_port'], 'default');
});

t.test('variables outside the table are ignored', async (t) => {
  t.equal(load({ MOCK_UNKNOWN: 'x', HTTP_PORT: '1' }).config.server.http_port, 3000);
});
