import t from 'tap';
import { loadConfig } from '../../dist/src/config/index.js';

const cases = [
  [
    'server:\n  http_port: 3000\n   bind: x\n',
    'mock.yaml:2:14: invalid YAML: Nested mappings are not allowed in compact mappings; put a nested mapping on its own, further indented lines',
  ],
  ['server:\n\thttp_port: 1\n', 'mock.yaml:2:1: invalid YAML: Tabs are not allowed as indentation; indent with spaces, not tabs'],
  ['seed: 1\nseed: 2\n', 'mock.yaml:2:1: invalid YAML: Map keys must be unique; remove or rename the repeated key'],
  ["server:\n  bind: 'unterminated\n", "mock.yaml:3:1: invalid YAML: Missing closing 'quote; add the missing closing character"],
  [
    'specs:\n  - a.yaml\n  b.yaml\n',
    'mock.yaml:3:1: invalid YAML: All mapping items must start at the same column; align keys of the same mapping at the same column',
  ],
  ['server:\n  bind: @host\n', 'mock.yaml:2:9: invalid YAML: Plain value cannot start with reserved character @; quote the value'],
];

t.test('YAML syntax errors name file, line and column, and the fix', async (t) => {
  for (const [content, message] of cases) {
    const cwd = t.testdir({ 'mock.yaml': content });
    t.throws(() => loadConfig({ cwd, env: {} }), { code: 'MOCK_ERR_CONFIG_PARSE', message }, JSON.stringify(content));
  }
});

t.test('a file below cwd is named by its relative path', async (t) => {
  const cwd = t.testdir({ conf: { 'my.yml': 'a: [1\n' } });
  t.throws(() => loadConfig({ cwd, env: {}, configPath: 'conf/my.yml' }), { message: /^conf\/my\.yml:2:1: invalid YAML: / });
});
