import path from 'node:path';
import t from 'tap';
import { checkConfigFile, formatReport } from '../../dist/src/cli/config-report.js';
import { failsWith, runCli, tinySpec } from './fixtures/run-cli.js';

// The checks run in-process (fast); a few cases spawn the CLI for its output, exit codes and alias.
const check = (cwd, configPath) => checkConfigFile({ cwd, configPath, env: {} });

const GOOD = `
server: { http_port: 3000 }
specs: [api.json]
validation: { mode: warn }
http:
  routes:
    - { method: GET, path: /things1, match: { query: { view: full } }, response: { body: { full: true } } }
    - { path: /legacy/**, response: { status: 410 } }
core:
  stateful:
    enabled: true
    state_machines:
      - name: orders
        initial_state: initial
        states: [{ name: pending }, { name: processing }]
        resource_id_extract: { type: path_param, param: order_id }
        transitions:
          - { method: POST, path_pattern: /orders, from_state: initial, to_state: pending }
          - { method: PUT, path_pattern: "/orders/{order_id}/process", from_state: pending, to_state: processing }
`;

t.test('a good file: counts, exit 0', async (t) => {
  const cwd = t.testdir({
    'mock.yaml': GOOD,
    'api.json': tinySpec(3),
    bare: { 'mock.yaml': 'http:\n  routes: [{ path: /health, response: { body: ok } }]\n' },
  });
  const result = runCli(['config', 'validate'], { cwd });
  t.same(result, {
    code: 0,
    stderr: '',
    stdout: [
      'mock.yaml: valid',
      '  specs: 1 (api.json: 3 operations)',
      '  HTTP endpoints: 5 (3 from descriptions, 2 custom routes)',
      '  chains: 3 (2 state transitions in 1 state machine, 1 conditional custom route)',
      '',
    ].join('\n'),
  });

  const json = runCli(['validate-config', '--json', '-c', 'mock.yaml'], { cwd });
  t.equal(json.code, 0, 'the validate-config alias of the spec works');
  t.same(JSON.parse(json.stdout), {
    file: 'mock.yaml',
    specs: [{ source: 'api.json', operations: 3 }],
    endpoints: { total: 5, operations: 3, custom_routes: 2 },
    chains: { total: 3, transitions: 2, state_machines: 1, conditional_routes: 1 },
    warnings: [],
    deprecated: [],
  });

  t.equal(
    formatReport(await check(path.join(cwd, 'bare')), false),
    [
      'mock.yaml: valid',
      '  specs: 0',
      '  HTTP endpoints: 1 (0 from descriptions, 1 custom route)',
      '  chains: 0 (0 state transitions in 0 state machines, 0 conditional custom routes)',
      '  warning: no specs: section; mock serve needs --spec <path|url>',
      '  warning: no server: section; the HTTP mock listens on 0.0.0.0:3000 (the default)',
      '  warning: no validation: section; requests are validated in enforce mode, rejected with 400 (the default)',
      '',
    ].join('\n'),
    'missing sections are warnings, not errors',
  );
});

t.test('deprecated options: counted, and listed with line and replacement by --check-deprecated', async (t) => {
  const cwd = t.testdir({
    'mock.yaml': [
      'specs: [api.json]',
      'server: { http_port: 3000 }',
      'validation: { mode: enforce }',
      'chaos:',
      '  failures_enabled: true',
      '  failure_rate: 0.1',
      'response:',
      '  template_expand: true',
      '',
    ].join('\n'),
    'api.json': tinySpec(1),
  });
  const report = await check(cwd);
  t.same(report.deprecated, [
    { key: 'chaos.failures_enabled', replacement: 'observability.chaos.fault_injection.enabled', line: 5 },
    { key: 'chaos.failure_rate', replacement: 'observability.chaos.fault_injection.http_error_probability', line: 6 },
    { key: 'response.template_expand', replacement: 'response_template_expand', line: 8 },
  ]);
  t.match(formatReport(report, false), '\n  deprecated: 3 options in use; list with --check-deprecated\n');
  const listed = formatReport(report, true);
  t.ok(
    listed.endsWith(
      [
        '  deprecated: chaos.failures_enabled (line 5): use observability.chaos.fault_injection.enabled',
        '  deprecated: chaos.failure_rate (line 6): use observability.chaos.fault_injection.http_error_probability',
        '  deprecated: response.template_expand (line 8): use response_template_expand',
        '',
      ].join('\n'),
    ),
    listed,
  );

  const spawned = runCli(['config', 'validate', '--check-deprecated'], { cwd });
  t.equal(spawned.code, 0, 'deprecated options are not errors');
  t.equal(spawned.stdout, listed);
});

t.test('errors: one line naming the file and what is wrong', async (t) => {
  const cwd = t.testdir({
    yaml: { 'mock.yaml': 'server:\n  http_port: 3000\n   bind: x\n' },
    schema: { 'mock.yaml': 'server:\n  http_port: abc\n' },
    spec: { 'mock.yaml': 'specs: [api.json, missing.yaml]\n', 'api.json': tinySpec(1) },
    route: { 'mock.yaml': 'http:\n  routes: [{ path: nope }]\n' },
    none: {},
  });
  const yamlError =
    'mock.yaml:2:14: invalid YAML: Nested mappings are not allowed in compact mappings; put a nested mapping on its own, further indented lines';
  await t.rejects(check(path.join(cwd, 'yaml')), { code: 'MOCK_ERR_CONFIG_PARSE', message: yamlError });
  await t.rejects(check(cwd, 'schema/mock.yaml'), {
    code: 'MOCK_ERR_CONFIG_INVALID',
    message: 'schema/mock.yaml: server.http_port: expected integer, got "abc"',
  });
  await t.rejects(check(path.join(cwd, 'spec')), {
    code: 'MOCK_ERR_SPEC_NOT_FOUND',
    message: 'spec not found: missing.yaml (checked specs[1] in mock.yaml)',
  });
  await t.rejects(check(path.join(cwd, 'route')), {
    message: 'mock.yaml: http.routes[0].path: expected a path starting with "/", got "nope"',
  });
  await t.rejects(check(cwd, 'gone.yaml'), {
    code: 'MOCK_ERR_CONFIG_NOT_FOUND',
    message: 'config not found: gone.yaml (checked --config)',
  });
  // t.testdir() lies inside the project, which has no mock.yaml above it
  await t.rejects(check(path.join(cwd, 'none')), {
    code: 'MOCK_ERR_CONFIG_NOT_FOUND',
    message: `no config file found: looked for mock.yaml, mock.yml, .mock.yaml, .mock.yml in ${path.join(cwd, 'none')} and its parents; pass -c <path> or create one with mock init`,
  });

  failsWith(t, runCli(['config', 'validate'], { cwd: path.join(cwd, 'yaml') }), yamlError, 1);
  failsWith(
    t,
    runCli(['config', 'validate'], { cwd: path.join(cwd, 'spec') }),
    'spec not found: missing.yaml (checked specs[1] in mock.yaml)',
    1,
  );
});

t.test('every schema error of the file at once, one line each, from config validate and serve alike', async (t) => {
  const cwd = t.testdir({
    'mock.yaml': 'server:\n  http_port: abc\n  htp_port: 1\nvalidation:\n  mode: false\nspecs:\n  - 5\n',
  });
  const lines = [
    'mock.yaml: server.http_port: expected integer, got "abc"',
    'mock.yaml: server.htp_port: unknown key (did you mean http_port?); expected one of http_port, ws_port, grpc_port, graphql_port, bind, http_backend, http_version, workers, tls, shutdown_timeout_ms',
    'mock.yaml: validation.mode: expected string, got false',
    'mock.yaml: specs[0]: expected string or object, got 5',
  ].join('\n');
  failsWith(t, runCli(['config', 'validate'], { cwd }), lines, 1);
  failsWith(t, runCli(['serve'], { cwd }), lines, 1);
});

t.test('a "__proto__" key anywhere in the configuration is refused by name, before it is merged into the defaults', async (t) => {
  // merged, auth.schemes.__proto__ walked into Object.prototype: every object of the process had api_keys
  const cwd = t.testdir({ 'mock.yaml': 'auth:\n  schemes:\n    __proto__: { api_keys: [polluted] }\n' });
  failsWith(t, runCli(['config', 'validate'], { cwd }), 'mock.yaml: auth.schemes.__proto__: "__proto__" cannot be a key of the configuration; rename it', 1);
  const loaded = await check(cwd).catch((e) => e);
  t.equal(loaded.code, 'MOCK_ERR_CONFIG_INVALID');
  t.equal({}.api_keys, undefined, 'nothing reached the prototype of this process');
  const ordinary = t.testdir({ 'mock.yaml': 'validation:\n  overrides:\n    constructor: warn\n' });
  t.equal(runCli(['config', 'validate'], { cwd: ordinary }).code, 0, 'other names that objects inherit are keys like another');
});

t.test('admin auth with state.store redis and no jwt_secret in the file: a warning that mock serve will need JWT_SECRET', async (t) => {
  const shared = 'specs: [api.json]\nserver: { http_port: 3000 }\nvalidation: { mode: warn }\nstate: { store: redis, redis_url: "redis://127.0.0.1:6379" }\n';
  const cwd = t.testdir({
    'api.json': tinySpec(1),
    unsigned: { 'mock.yaml': `${shared}admin: { auth: { enabled: true } }\n`, 'api.json': tinySpec(1) },
    signed: { 'mock.yaml': `${shared}admin: { auth: { enabled: true, jwt_secret: "${'k'.repeat(48)}" } }\n`, 'api.json': tinySpec(1) },
  });
  const unsigned = await check(path.join(cwd, 'unsigned'));
  t.match(unsigned.warnings, [/^admin auth with state\.store redis needs JWT_SECRET when serving/]);
  t.same((await check(path.join(cwd, 'signed'))).warnings, [], 'a key in the file (or JWT_SECRET) is all it needs');
});
