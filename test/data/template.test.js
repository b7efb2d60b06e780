// `mock data template`: the server's template tokens rendered --count times; JSON templates give JSON values.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseCsv, runData } from './helpers.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TEMPLATE = JSON.stringify({
  id: '{{uuid}}',
  name: '{{faker.name}}',
  email: '{{faker.email}}',
  company: '{{faker.company}}',
  n: '{{randInt 1 100}}',
  at: '{{now}}',
  later: '{{now+1h}}',
  fixed: 42,
  nested: { city: '{{faker.location.city}}', list: ['{{uuid}}', true] },
});

t.test('a JSON template renders to JSON values: uuids, faker values, numbers in range, count', async (t) => {
  const res = await runData(['template', '--template', TEMPLATE, '--count', '50']);
  t.equal(res.code, 0, res.stderr);
  const values = JSON.parse(res.stdout);
  t.equal(values.length, 50, '--count values');
  for (const v of values) {
    t.match(v.id, UUID_V4, 'uuid v4');
    t.ok(typeof v.name === 'string' && v.name.length > 1 && !v.name.includes('{{'), `faker name ${v.name}`);
    t.match(v.email, /^[^@\s]+@[^@\s]+\.[a-z]+$/i, 'faker email');
    t.ok(v.company.length > 0, 'faker company');
    t.ok(Number(v.n) >= 1 && Number(v.n) <= 100 && Number.isInteger(Number(v.n)), `randInt in range: ${v.n}`);
    t.match(v.at, ISO);
    // the real clock (no seed): the two tokens are rendered a few milliseconds apart at most
    const offset = Date.parse(v.later) - Date.parse(v.at);
    t.ok(offset >= 3_600_000 && offset < 3_605_000, `now+1h: ${offset} ms later`);
    t.equal(v.fixed, 42, 'JSON values outside tokens are kept as they are');
    t.ok(v.nested.city.length > 0 && UUID_V4.test(v.nested.list[0]) && v.nested.list[1] === true, 'nested objects and arrays');
  }
  t.equal(new Set(values.map((v) => v.id)).size, 50, 'a fresh uuid per value');

  const one = await runData(['template', '--template', '{"id":"{{uuid}}"}']);
  t.match(JSON.parse(one.stdout), { id: UUID_V4 }, '--count 1 (default): one value, not an array');
});

t.test('@file templates (JSON, YAML as data, text); text templates give strings; yaml and csv output', async (t) => {
  const dir = t.testdir({
    'user.json': TEMPLATE,
    'user.yaml': 'id: "{{uuid}}"\nprofile:\n  name: "{{faker.name}}"\n  tags: [a, "{{randInt 1 3}}"]\n',
    'greeting.txt': 'Hello {{faker.name}}, your id is {{uuid}}',
  });
  const [json, yaml, text, csv, yamlOut] = await Promise.all([
    runData(['template', '--template', `@${path.join(dir, 'user.json')}`, '--count', '3', '--seed', '4']),
    runData(['template', '--template', `@${path.join(dir, 'user.yaml')}`, '--count', '3']),
    runData(['template', '--template', `@${path.join(dir, 'greeting.txt')}`, '--count', '3']),
    runData(['template', '--template', `@${path.join(dir, 'user.json')}`, '--count', '3', '--seed', '4', '--format', 'csv']),
    runData(['template', '--template', `@${path.join(dir, 'user.json')}`, '--count', '3', '--seed', '4', '--output', path.join(dir, 'out.yml')]),
  ]);
  for (const r of [json, yaml, text, csv, yamlOut]) t.equal(r.code, 0, r.stderr);
  const values = JSON.parse(json.stdout);
  t.equal(values.length, 3);
  t.match(values[0], { id: UUID_V4, fixed: 42 });
  const fromYaml = JSON.parse(yaml.stdout);
  t.match(fromYaml[0], { id: UUID_V4, profile: { name: String, tags: ['a', /^[123]$/] } }, 'a YAML file is a JSON template');
  const greetings = JSON.parse(text.stdout);
  t.equal(greetings.length, 3);
  for (const g of greetings) t.match(g, /^Hello [^{}]+, your id is [0-9a-f-]{36}$/, 'text templates render to strings');
  const { header, rows } = parseCsv(csv.stdout);
  t.same(header, ['id', 'name', 'email', 'company', 'n', 'at', 'later', 'fixed', 'nested.city', 'nested.list']);
  t.same(rows.map((r) => r.id), values.map((v) => v.id), 'csv: same values with the same seed');
  t.equal(rows[0]['nested.list'], JSON.stringify(values[0].nested.list), 'arrays as JSON text');
  t.same(parseYaml(readFileSync(path.join(dir, 'out.yml'), 'utf8')), values, '--output .yml writes YAML');
});

t.test('a text template may open with a token: it is text, not malformed JSON', async (t) => {
  const [name, block] = await Promise.all([
    runData(['template', '--template', '{{faker.name}}', '--count', '3']),
    runData(['template', '--template', "{{#if (eq request.query.x 'a')}}{\"a\":1}{{else}}id {{uuid}}{{/if}}"]),
  ]);
  t.equal(name.code, 0, name.stderr);
  const names = JSON.parse(name.stdout);
  t.equal(names.length, 3);
  for (const n of names) t.ok(typeof n === 'string' && n.length > 1 && !n.includes('{'), `a name: ${n}`);
  t.equal(block.code, 0, block.stderr);
  t.match(JSON.parse(block.stdout), /^id [0-9a-f-]{36}$/, 'a leading block token');
});

t.test('--seed repeats (the clock too); other seeds differ; --now pins the clock', async (t) => {
  const args = ['template', '--template', TEMPLATE, '--count', '5'];
  // seed 7 by flag and by MOCK_SEED: two processes, the same output
  const [a, c, env, now] = await Promise.all([
    runData([...args, '--seed', '7']),
    runData([...args, '--seed', '8']),
    runData(args, { env: { MOCK_SEED: '7' } }),
    runData([...args, '--now', '2031-02-03T04:05:06Z']),
  ]);
  t.not(a.stdout, c.stdout, 'another seed, other output');
  t.equal(env.stdout, a.stdout, 'same seed (MOCK_SEED), same output');
  t.equal(JSON.parse(a.stdout)[0].at, '2025-01-01T00:00:00.000Z', 'a seed pins the clock');
  t.equal(JSON.parse(now.stdout)[0].later, '2031-02-03T05:05:06.000Z', '--now');
});

t.test('without tokens the template is returned as is; request tokens render empty', async (t) => {
  const [plain, request] = await Promise.all([
    runData(['template', '--template', '{"a":[1,2]}', '--count', '2']),
    runData(['template', '--template', '{"id":"{{request.path.id}}","q":"{{request.query.x}}"}']),
  ]);
  t.same(JSON.parse(plain.stdout), [{ a: [1, 2] }, { a: [1, 2] }]);
  t.same(JSON.parse(request.stdout), { id: '', q: '' });
});

t.test('bad input: one line naming the flag or file, non-zero exit', async (t) => {
  const cases = [
    [['--template', '{"n": {{randInt 1 5}}}'], /^--template: looks like JSON but does not parse \(.*\); put tokens inside JSON strings, e\.g\. \{"id":"\{\{uuid\}\}"\}$/],
    [['--template', '{"a":"{{randInt 5}}"}'], /^--template: template error: .* \(fix the \{\{…\}\} token\)$/],
    [['--template', '{"a":"{{#if x}}"}'], /^--template: template error: /],
    [['--template', '@nowhere.json'], /^--template @nowhere\.json: file not found \(checked .*nowhere\.json; pass @<file> naming an existing template file\)$/],
    [['--template', ''], /^--template: empty template/],
    [['--template', 'x', '--format', 'toml'], /--format/],
    [['--template', 'x', '--seed', 'abc'], /--seed/],
    [[], /Missing required flag template/],
  ];
  const results = await Promise.all(cases.map(([args]) => runData(['template', ...args])));
  cases.forEach(([args, message], i) => {
    const res = results[i];
    t.not(res.code, 0, `${JSON.stringify(args)} fails`);
    t.equal(res.stdout, '');
    const lines = res.stderr.trim().split('\n');
    t.equal(lines.length, 1, `one line: ${res.stderr}`);
    t.match(lines[0], message);
  });
});
