import t from 'tap';
import { loadConfig } from '../../dist/src/config/index.js';

// Each file content and the one-line message it must produce, exactly.
const cases = [
  ['server:\n  http_port: abc\n', 'mock.yaml: server.http_port: expected integer, got "abc"'],
  ['server:\n  http_port: 3000.5\n', 'mock.yaml: server.http_port: expected integer, got 3000.5'],
  ['server:\n  http_port: 70000\n', 'mock.yaml: server.http_port: expected integer <= 65535, got 70000'],
  ['server:\n  bind: 8080\n', 'mock.yaml: server.bind: expected string, got 8080'],
  ['server:\n  htp_port: 1\n', 'mock.yaml: server.htp_port: unknown key; expected one of http_port, bind'],
  ['server: null\n', 'mock.yaml: server: expected object, got null'],
  [
    'foo: 1\n',
    'mock.yaml: foo: unknown key; expected one of server, specs, validation, response_template_expand, http, seed, logging, build',
  ],
  ['- a\n- b\n', 'mock.yaml: expected object, got ["a","b"]'],
  ['specs: ./api.yaml\n', 'mock.yaml: specs: expected array, got "./api.yaml"'],
  ['specs:\n  - 5\n', 'mock.yaml: specs[0]: expected string or object, got 5'],
  ['specs:\n  - ""\n', 'mock.yaml: specs[0]: expected a non-empty string, got ""'],
  ['specs:\n  - ok.yaml\n  - { base_path: /v1 }\n', 'mock.yaml: specs[1].path: required key is missing'],
  ['specs:\n  - { path: a.yaml, base: /v1 }\n', 'mock.yaml: specs[0].base: unknown key; expected one of path, base_path'],
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
  ['http:\n  routes:\n    - path: /x\n      response: { status: "200" }\n', 'mock.yaml: http.routes[0].response.status: expected integer, got "200"'],
  ['http:\n  routes:\n    - path: /x\n      match: { query: kind }\n', 'mock.yaml: http.routes[0].match.query: expected object, got "kind"'],
  ['http:\n  cors: {}\n', 'mock.yaml: http.cors: unknown key; expected one of max_body_bytes, routes'],
  ['seed: 1.5\n', 'mock.yaml: seed: expected integer, got 1.5'],
  ['logging:\n  level: loud\n', 'mock.yaml: logging.level: expected one of error, warn, info, debug, trace, got "loud"'],
  ['logging:\n  format: xml\n', 'mock.yaml: logging.format: expected one of text, json, got "xml"'],
  ['build:\n  out_dir: ""\n', 'mock.yaml: build.out_dir: expected a non-empty string, got ""'],
];

t.test('schema errors are one line: file, key path, expectation, value found', async (t) => {
  for (const [content, message] of cases) {
    const cwd = t.testdir({ 'mock.yaml': content });
    t.throws(() => loadConfig({ cwd, env: {} }), { code: 'MOCK_ERR_CONFIG_INVALID', message }, JSON.stringify(content));
  }
});

t.test('loose route entries accept extra keys (the compiler checks them)', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'http:\n  routes:\n    - { path: /x, latency: { enabled: true } }\n' });
  t.same(loadConfig({ cwd, env: {} }).config.http.routes, [{ path: '/x', latency: { enabled: true } }]);
});

t.test('long values are shortened in messages', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': `server:\n  bind: [${'1,'.repeat(50)}1]\n` });
  t.throws(() => loadConfig({ cwd, env: {} }), { message: /^mock\.yaml: server\.bind: expected string, got \[1,1,.{40,60}…$/ });
});
