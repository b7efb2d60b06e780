import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { DEPRECATIONS, PLANNED_KEYS, isPlanned, loadConfig, plannedInUse } from '../../dist/src/config/index.js';

t.test('features not built yet are marked in the schema', async (t) => {
  t.same(PLANNED_KEYS, ['tenancy']);
  t.notOk(isPlanned('admin.port'), 'the admin API is built');
  t.notOk(isPlanned('metrics.enabled'));
  t.notOk(isPlanned('chaos.latency_enabled'), 'the global latency range is built');
  t.notOk(isPlanned('grpc.proto_dir'), 'gRPC is built');
  t.notOk(isPlanned('ai.enabled'), 'AI-assisted mocks are built');
  t.notOk(isPlanned('observability.chaos.rate_limit.enabled'), 'chaos is built');
  t.notOk(isPlanned('core.routes'), 'per-route chaos is built');
  t.notOk(isPlanned('server.http_port'));
  t.notOk(isPlanned('http.routes'), 'custom routes are built');
  t.notOk(isPlanned('http.keepalive_hint'), 'the keep-alive hint is built');
  t.notOk(isPlanned('response.caching.ttl_seconds'), 'the response cache is built');
  t.notOk(isPlanned('logging.file'));
  t.notOk(isPlanned('reality_continuum.enabled'), 'the reality continuum is built');
  t.notOk(isPlanned('proxy.rules'), 'the conditional proxy is built');
});

t.test('deprecated keys name their replacement', async (t) => {
  t.same(DEPRECATIONS, [
    { key: 'response.template_expand', replacement: 'response_template_expand' },
    { key: 'chaos.failures_enabled', replacement: 'observability.chaos.fault_injection.enabled' },
    { key: 'chaos.failure_rate', replacement: 'observability.chaos.fault_injection.http_error_probability' },
    { key: 'chaos.failure_status_codes', replacement: 'observability.chaos.fault_injection.http_errors' },
  ]);
});

t.test('a deprecated key gives its value to the replacement', async (t) => {
  const cwd = t.testdir({});
  const load = (content, env = {}) => {
    writeFileSync(path.join(cwd, 'mock.yaml'), content);
    return loadConfig({ cwd, env });
  };

  const legacy = load(
    'response:\n  template_expand: true\nchaos:\n  failures_enabled: true\n  failure_rate: 0.25\n  failure_status_codes: [502]\n',
  );
  t.equal(legacy.config.response_template_expand, true);
  t.equal(legacy.sources.response_template_expand, 'file');
  t.same(legacy.config.observability.chaos.fault_injection, {
    enabled: true,
    http_error_probability: 0.25,
    http_errors: [502],
    connection_error_kind: 'http_503',
  });
  t.equal(legacy.sources['observability.chaos.fault_injection.http_errors'], 'file');

  const both = load('response_template_expand: false\nresponse:\n  template_expand: true\n');
  t.equal(both.config.response_template_expand, false, 'the canonical key wins when both are in the file');

  const env = load('response:\n  template_expand: false\n', { MOCK_RESPONSE_TEMPLATE_EXPAND: 'true' });
  t.equal(env.config.response_template_expand, true, 'the environment sets the canonical key and outranks the file');
  t.equal(env.sources.response_template_expand, 'env');

  const canonical = load(
    'chaos:\n  failure_rate: 0.25\nobservability:\n  chaos:\n    fault_injection:\n      http_error_probability: 0.5\n',
  );
  t.equal(canonical.config.observability.chaos.fault_injection.http_error_probability, 0.5);

  const untouched = load('chaos:\n  latency_enabled: true\n');
  t.equal(untouched.config.observability, undefined, 'defaults of deprecated keys are not copied');
});

t.test('which features not built yet a configuration sets, by any source', async (t) => {
  const cwd = t.testdir({ 'mock.yaml': 'admin:\n  port: 9100\nwebsocket: { max_connections: 10 }\ntenancy: { plans: {} }\n' });
  const { sources } = loadConfig({
    cwd,
    env: { MOCK_GRPC_PORT: '50052' },
    flags: [
      { flag: 'chaos', key: 'observability.chaos.enabled', value: true },
      { flag: 'ai-enabled', key: 'ai.enabled', value: true },
    ],
  });
  t.same(plannedInUse(sources), ['tenancy'], 'websocket, gRPC and AI-assisted mocks are built');
  t.same(plannedInUse(loadConfig({ cwd: mkdtempSync(path.join(os.tmpdir(), 'mock-notes-')), env: {} }).sources).includes('tenancy'), false, 'defaults alone set nothing');
});
