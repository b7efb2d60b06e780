// runtime/chain/overrides loadOverrides: configuration rules, MOCK_HTTP_OVERRIDES, rule files from the glob, and every error.
import t from 'tap';
import path from 'node:path';
import * as fs from 'node:fs';
import { loadOverrides } from '../../../dist/runtime/chain/overrides/index.js';

const rule = (name, extra = { status: 503 }) => ({ name, ...extra });

t.test('nothing configured: no rules', async (t) => {
  t.same(loadOverrides({ env: {}, cwd: t.testdir() }), []);
  t.same(loadOverrides({ env: { MOCK_HTTP_OVERRIDES: ' ', MOCK_HTTP_OVERRIDES_GLOB: '' }, cwd: t.testdir() }), []);
});

t.test('config rules, then the env JSON, then glob files sorted by path', async (t) => {
  const cwd = t.testdir({
    overrides: {
      'b.yaml': 'rules:\n  - name: from-yaml\n    delay_ms: 10\n',
      'a.json': JSON.stringify([rule('from-json')]),
      'c.yml': '- name: from-yml\n  enabled: false\n  status: 500\n',
      nested: { 'd.json': JSON.stringify([rule('nested')]) },
    },
  });
  const rules = loadOverrides({
    env: { MOCK_HTTP_OVERRIDES: JSON.stringify([rule('from-env')]), MOCK_HTTP_OVERRIDES_GLOB: 'overrides/*.{json,yaml,yml}' },
    cwd,
    configRules: [rule('from-config')],
  });
  t.same(rules.map((r) => r.name), ['from-config', 'from-env', 'from-json', 'from-yaml', 'from-yml']);
  t.same(rules[3], { name: 'from-yaml', enabled: true, delay_ms: 10 });
  t.same(rules[4].enabled, false);
  t.same(loadOverrides({ env: { MOCK_HTTP_OVERRIDES_GLOB: 'overrides/**/*.json' }, cwd }).map((r) => r.name), ['from-json', 'nested']);
});

t.test('the config glob (absolute) is used unless MOCK_HTTP_OVERRIDES_GLOB is set', async (t) => {
  const dir = t.testdir({ 'config.json': JSON.stringify([rule('config-file')]), 'env.json': JSON.stringify([rule('env-file')]) });
  t.same(loadOverrides({ env: {}, cwd: '/', configGlob: path.join(dir, 'config.json') }).map((r) => r.name), ['config-file']);
  t.same(loadOverrides({ env: { MOCK_HTTP_OVERRIDES_GLOB: 'env.json' }, cwd: dir, configGlob: path.join(dir, 'config.json') }).map((r) => r.name), ['env-file']);
});

t.test('each problem throws MOCK_ERR_OVERRIDES_INVALID naming the source and the fix', async (t) => {
  const cwd = t.testdir({
    'bad.json': '[{"name": ',
    'bad.yaml': 'rules: [\n',
    'invalid.json': JSON.stringify([{ name: 'x', status: 42 }]),
    'dup.json': JSON.stringify([rule('same')]),
    'notes.txt': 'hello',
    'shape.json': '{"name": "x"}',
  });
  const fails = (options, message) => t.throws(() => loadOverrides({ env: {}, cwd, ...options }), { name: 'MockError', code: 'MOCK_ERR_OVERRIDES_INVALID', message });
  fails({ env: { MOCK_HTTP_OVERRIDES: '[{"name":' } }, /^MOCK_HTTP_OVERRIDES is not valid JSON \(.+\); set it to a JSON array of override rules$/);
  fails({ env: { MOCK_HTTP_OVERRIDES: '[{"name": "x", "status": 700}]' } }, 'MOCK_HTTP_OVERRIDES: rules[0] ("x"): status must be at most 599 (got 700); fix it in MOCK_HTTP_OVERRIDES');
  fails({ env: { MOCK_HTTP_OVERRIDES: '{"name": "x"}' } }, 'MOCK_HTTP_OVERRIDES: override rules must be an array or an object {"rules": [...]} (got {"name":"x"}); fix it in MOCK_HTTP_OVERRIDES');
  fails({ configRules: [{ name: 'x' }] }, 'http.overrides.rules: rules[0] ("x"): the rule changes nothing; give it at least one of status, headers, body, merge, delay_ms; fix it in the configuration file');
  fails({ env: { MOCK_HTTP_OVERRIDES_GLOB: 'missing/*.json' } }, `MOCK_HTTP_OVERRIDES_GLOB "missing/*.json" matches no file under ${cwd}; fix the pattern or unset MOCK_HTTP_OVERRIDES_GLOB`);
  fails({ configGlob: 'missing/*.json' }, `http.overrides.glob "missing/*.json" matches no file under ${cwd}; fix the pattern or unset http.overrides.glob`);
  fails({ env: { MOCK_HTTP_OVERRIDES_GLOB: 'bad.json' } }, /^bad\.json is not valid JSON \(.+\); fix the file or narrow MOCK_HTTP_OVERRIDES_GLOB$/);
  fails({ env: { MOCK_HTTP_OVERRIDES_GLOB: 'bad.yaml' } }, /^bad\.yaml is not valid YAML \([^\n]+[^:]\); fix the file or narrow MOCK_HTTP_OVERRIDES_GLOB$/);
  fails({ env: { MOCK_HTTP_OVERRIDES_GLOB: 'invalid.json' } }, 'invalid.json: rules[0] ("x"): status must be at least 100 (got 42); fix the file or narrow MOCK_HTTP_OVERRIDES_GLOB');
  fails({ env: { MOCK_HTTP_OVERRIDES_GLOB: 'shape.json' } }, 'shape.json: override rules must be an array or an object {"rules": [...]} (got {"name":"x"}); fix the file or narrow MOCK_HTTP_OVERRIDES_GLOB');
  fails({ env: { MOCK_HTTP_OVERRIDES_GLOB: '*.txt' } }, 'notes.txt matches MOCK_HTTP_OVERRIDES_GLOB but is not a .json, .yaml or .yml file; narrow the pattern');
  fails(
    { env: { MOCK_HTTP_OVERRIDES: JSON.stringify([rule('same')]), MOCK_HTTP_OVERRIDES_GLOB: 'dup.json' } },
    'override rule "same" is defined in both MOCK_HTTP_OVERRIDES and dup.json; rename one of them',
  );
  fails({ configRules: [rule('same')], env: { MOCK_HTTP_OVERRIDES: JSON.stringify([rule('same')]) } }, 'override rule "same" is defined in both http.overrides.rules and MOCK_HTTP_OVERRIDES; rename one of them');
});

t.test('an unreadable file names itself', async (t) => {
  // permissions do not stop root, so the read failure is simulated
  const { loadOverrides: load } = await t.mockImport('../../../dist/runtime/chain/overrides/index.js', {
    'node:fs': {
      ...fs,
      readFileSync: () => {
        throw new Error('EACCES: permission denied');
      },
    },
  });
  const cwd = t.testdir({ 'locked.json': '[]' });
  t.throws(() => load({ env: { MOCK_HTTP_OVERRIDES_GLOB: '*.json' }, cwd }), {
    code: 'MOCK_ERR_OVERRIDES_INVALID',
    message: 'cannot read locked.json (EACCES: permission denied); fix its permissions or narrow MOCK_HTTP_OVERRIDES_GLOB',
  });
});

t.test('admin.limits.max_override_rules counts the rules of every source together', async (t) => {
  const cwd = t.testdir({ 'more.json': JSON.stringify([rule('c')]) });
  const env = { MOCK_HTTP_OVERRIDES: JSON.stringify([rule('b')]), MOCK_HTTP_OVERRIDES_GLOB: 'more.json' };
  t.equal(loadOverrides({ env, cwd, configRules: [rule('a')], maxRules: 3 }).length, 3);
  t.throws(() => loadOverrides({ env, cwd, configRules: [rule('a')], maxRules: 2 }), {
    code: 'MOCK_ERR_OVERRIDES_INVALID',
    message: 'http.overrides.rules, MOCK_HTTP_OVERRIDES, more.json: 3 override rules are more than admin.limits.max_override_rules (2); remove some or raise admin.limits.max_override_rules in mock.yaml',
  });
  t.throws(() => loadOverrides({ env: { MOCK_HTTP_OVERRIDES: JSON.stringify(Array.from({ length: 1001 }, (_, i) => rule(`r${i}`))) }, cwd }), { message: /^MOCK_HTTP_OVERRIDES: 1001 override rules are more than admin\.limits\.max_override_rules \(1000\)/ }, 'the default');
});
