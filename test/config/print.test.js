import path from 'node:path';
import t from 'tap';
import { formatConfig, loadConfig } from '../../dist/src/config/index.js';

t.test('--print-config output: the effective YAML with a source comment per leaf', async (t) => {
  const cwd = t.testdir({
    'mock.yaml': 'specs: [api.yaml]\nserver: { http_port: 4000 }\nvalidation:\n  overrides: { "GET /health": "off" }\n',
  });
  const resolved = loadConfig({
    cwd,
    env: { MOCK_HTTP_HOST: '127.0.0.1', MOCK_REQUEST_VALIDATION: 'warn' },
    flags: [{ flag: 'http-port', key: 'server.http_port', value: 8080 }, { flag: 'seed', key: 'seed', value: 9 }],
  });
  t.equal(
    formatConfig(resolved),
    [
      `# config file: ${path.join(cwd, 'mock.yaml')} (found by search from the current directory)`,
      'server:',
      '  http_port: 8080 # from flag',
      '  bind: 127.0.0.1 # from env',
      'specs: # from file',
      `  - path: ${path.join(cwd, 'api.yaml')}`,
      'validation:',
      '  mode: warn # from env',
      '  aggregate_errors: false # from default',
      '  validate_responses: false # from default',
      '  status_code: 400 # from default',
      '  skip_admin_validation: true # from default',
      '  overrides:',
      '    GET /health: off # from file',
      'response_template_expand: false # from default',
      'http:',
      '  max_body_bytes: 10485760 # from default',
      '  routes: [] # from default',
      'logging:',
      '  level: info # from default',
      '  format: text # from default',
      'build:',
      `  out_dir: ${path.join(cwd, 'generated')} # from default`,
      'seed: 9 # from flag',
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
