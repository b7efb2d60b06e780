import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ENV_VARIABLES, loadConfig } from '../../dist/src/config/index.js';

// Outside the project, so no mock.yaml of a parent directory is found.
const cwd = mkdtempSync(path.join(tmpdir(), 'mock-env-'));
t.teardown(() => rmSync(cwd, { recursive: true }));
const load = (env) => loadConfig({ cwd, env });

t.test('the table maps every variable to its key and type', async (t) => {
  t.same(
    ENV_VARIABLES.map(({ name, key, type }) => [name, key, type]),
    [
      ['MOCK_HTTP_PORT', 'server.http_port', 'integer'],
      ['MOCK_HTTP_HOST', 'server.bind', 'string'],
      ['MOCK_REQUEST_VALIDATION', 'validation.mode', 'string'],
      ['MOCK_RESPONSE_VALIDATION', 'validation.validate_responses', 'boolean'],
      ['MOCK_RESPONSE_TEMPLATE_EXPAND', 'response_template_expand', 'boolean'],
      ['MOCK_SEED', 'seed', 'integer'],
      ['MOCK_LOG_LEVEL', 'logging.level', 'string'],
    ],
  );
});

const good = [
  ['MOCK_HTTP_PORT', '8080', (c) => c.server.http_port, 8080],
  ['MOCK_HTTP_PORT', ' 0 ', (c) => c.server.http_port, 0],
  ['MOCK_HTTP_HOST', '127.0.0.1', (c) => c.server.bind, '127.0.0.1'],
  ['MOCK_REQUEST_VALIDATION', 'warn', (c) => c.validation.mode, 'warn'],
  ['MOCK_REQUEST_VALIDATION', 'off', (c) => c.validation.mode, 'off'],
  ['MOCK_RESPONSE_VALIDATION', 'true', (c) => c.validation.validate_responses, true],
  ['MOCK_RESPONSE_VALIDATION', 'TRUE', (c) => c.validation.validate_responses, true],
  ['MOCK_RESPONSE_VALIDATION', '1', (c) => c.validation.validate_responses, true],
  ['MOCK_RESPONSE_TEMPLATE_EXPAND', 'True', (c) => c.response_template_expand, true],
  ['MOCK_RESPONSE_TEMPLATE_EXPAND', 'false', (c) => c.response_template_expand, false],
  ['MOCK_RESPONSE_TEMPLATE_EXPAND', '0', (c) => c.response_template_expand, false],
  ['MOCK_SEED', '42', (c) => c.seed, 42],
  ['MOCK_SEED', '-7', (c) => c.seed, -7],
  ['MOCK_LOG_LEVEL', 'debug', (c) => c.logging.level, 'debug'],
  ['MOCK_LOG_LEVEL', 'trace', (c) => c.logging.level, 'trace'],
];

t.test('good values set their key, with source env', async (t) => {
  for (const [name, raw, read, expected] of good) {
    const variable = ENV_VARIABLES.find((v) => v.name === name);
    const { config, sources } = load({ [name]: raw });
    t.equal(read(config), expected, `${name}=${JSON.stringify(raw)}`);
    t.equal(sources[variable.key], 'env', `${name} source`);
  }
});

const bad = [
  ['MOCK_HTTP_PORT', 'x', 'MOCK_HTTP_PORT: expected integer, got "x"'],
  ['MOCK_HTTP_PORT', '80.5', 'MOCK_HTTP_PORT: expected integer, got "80.5"'],
  ['MOCK_HTTP_PORT', '1e3', 'MOCK_HTTP_PORT: expected integer, got "1e3"'],
  ['MOCK_HTTP_PORT', '70000', 'MOCK_HTTP_PORT: expected integer <= 65535, got 70000'],
  ['MOCK_HTTP_PORT', '-1', 'MOCK_HTTP_PORT: expected integer >= 0, got -1'],
  ['MOCK_REQUEST_VALIDATION', 'maybe', 'MOCK_REQUEST_VALIDATION: expected one of off, warn, enforce, got "maybe"'],
  ['MOCK_RESPONSE_VALIDATION', 'yes', 'MOCK_RESPONSE_VALIDATION: expected boolean (true, false, 1 or 0), got "yes"'],
  ['MOCK_RESPONSE_TEMPLATE_EXPAND', '2', 'MOCK_RESPONSE_TEMPLATE_EXPAND: expected boolean (true, false, 1 or 0), got "2"'],
  ['MOCK_SEED', 'abc', 'MOCK_SEED: expected integer, got "abc"'],
  ['MOCK_SEED', '99999999999999999999', 'MOCK_SEED: expected integer, got "99999999999999999999"'],
  ['MOCK_LOG_LEVEL', 'loud', 'MOCK_LOG_LEVEL: expected one of error, warn, info, debug, trace, got "loud"'],
];

t.test('bad values are one-line errors naming the variable', async (t) => {
  for (const [name, raw, message] of bad) {
    t.throws(() => load({ [name]: raw }), { code: 'MOCK_ERR_CONFIG_INVALID', message }, `${name}=${raw}`);
  }
});

t.test('an empty variable counts as unset', async (t) => {
  const { config, sources } = load({ MOCK_HTTP_PORT: '', MOCK_HTTP_HOST: '  ' });
  t.equal(config.server.http_port, 3000);
  t.equal(config.server.bind, '0.0.0.0');
  t.equal(sources['server.http_port'], 'default');
});

t.test('variables outside the table are ignored', async (t) => {
  t.equal(load({ MOCK_UNKNOWN: 'x', HTTP_PORT: '1' }).config.server.http_port, 3000);
});
