import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { DEPRECATIONS, loadConfig } from '../../dist/src/config/index.js';

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
