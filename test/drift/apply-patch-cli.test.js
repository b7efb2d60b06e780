// mock contract-diff apply-patch on corpus descriptions: a JSON Patch applied whole or not at all,
// YAML comments and key order kept, the result checked as a description before anything is written.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { corpus, runCli } from '../helpers/cli.js';

const docker = readFileSync(path.join(corpus, 'openapi', 'docker-engine.yaml'), 'utf8');
const twilio = readFileSync(path.join(corpus, 'openapi', 'twilio-api-v2010.json'), 'utf8');
const commentsOf = (text) =>
  text
    .split('\n')
    .filter((line) => /^\s*#/.test(line))
    .map((line) => line.trim());

const DOCKER_PATCH = [
  { op: 'test', path: '/definitions/ContainerSummary/type', value: 'object' },
  { op: 'add', path: '/definitions/ContainerSummary/properties/Nickname', value: { type: 'string', description: 'seen in traffic' } },
  { op: 'add', path: '/paths/~1containers~1json/get/responses/404', value: { description: 'no such container' } },
  { op: 'replace', path: '/definitions/ContainerSummary/properties/Id/maxLength', value: 80 },
];

t.test('a YAML description: every operation applied, its comments and key order kept, and compare sees exactly the patch', async (t) => {
  const dir = t.testdir({ 'docker.yaml': docker, 'fix.json': JSON.stringify(DOCKER_PATCH) });
  const result = await runCli(['contract-diff', 'apply-patch', '--spec', 'docker.yaml', '--patch', 'fix.json', '--output', 'patched.yaml'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  t.equal(result.stdout, '');
  t.equal(result.stderr, 'patched.yaml: 4 operation(s) applied\n');
  const text = readFileSync(path.join(dir, 'patched.yaml'), 'utf8');
  const before = parse(docker);
  const after = parse(text);
  t.same(after.definitions.ContainerSummary.properties.Nickname, { type: 'string', description: 'seen in traffic' });
  t.same(after.paths['/containers/json'].get.responses['404'], { description: 'no such container' });
  t.equal(after.definitions.ContainerSummary.properties.Id.maxLength, 80);
  t.same(Object.keys(after), Object.keys(before), 'top-level keys in their order');
  t.same(Object.keys(after.definitions), Object.keys(before.definitions), 'definitions in their order');
  t.same(Object.keys(after.paths), Object.keys(before.paths), 'paths in their order');
  const kept = commentsOf(text);
  t.ok(commentsOf(docker).length > 0, 'the corpus file has comments');
  t.same(
    commentsOf(docker).filter((comment) => !kept.includes(comment)),
    [],
    'every comment is still there',
  );
  t.ok(text.includes('description: "no error"'), 'untouched scalars keep their quoting');

  const compare = await runCli(['contract-diff', 'compare', '--old-spec', 'docker.yaml', '--new-spec', 'patched.yaml', '--format', 'json'], { cwd: dir });
  t.equal(compare.code, 0, compare.stderr);
  const changes = JSON.parse(compare.stdout).changes.map(({ id, location }) => `${id} ${location}`);
  t.equal(changes.length, 3, changes.join('\n'));
  t.match(changes.sort(), [/^response-constraint-widened GET \/containers\/json .*ContainerSummary\/properties\/Id$/, /^response-property-added GET \/containers\/json .*Nickname$/, /^response-status-added GET \/containers\/json .*responses\/404$/]);
});

t.test('a JSON description: key order and indentation kept; --output may be --spec itself', async (t) => {
  const patch = [
    { op: 'add', path: '/info/x-patched', value: true },
    { op: 'remove', path: '/info/termsOfService' },
  ];
  const original = JSON.parse(twilio);
  const dir = t.testdir({ 'twilio.json': twilio, 'fix.json': JSON.stringify(patch) });
  const result = await runCli(['contract-diff', 'apply-patch', '--spec', 'twilio.json', '--patch', 'fix.json', '--output', 'twilio.json'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  const text = readFileSync(path.join(dir, 'twilio.json'), 'utf8');
  const expected = structuredClone(original);
  expected.info['x-patched'] = true;
  delete expected.info.termsOfService;
  t.same(JSON.parse(text), expected);
  t.same(Object.keys(JSON.parse(text).info), [...Object.keys(original.info).filter((key) => key !== 'termsOfService'), 'x-patched'], 'a new key goes last, the others keep their order');
  t.equal(text.split('\n')[1].match(/^\s*/)[0], twilio.split('\n')[1].match(/^\s*/)[0], 'the same indentation');

  const printed = await runCli(['contract-diff', 'apply-patch', '--spec', 'twilio.json', '--patch', 'fix.json'], { cwd: dir });
  t.equal(printed.code, 2, 'the same patch again: the removed field is gone');
  t.match(printed.stderr, /^--patch fix\.json: does not apply to twilio\.json: .*\n$/);
});

t.test('nothing is written when the patch does not apply or its result is not a description', async (t) => {
  const dir = t.testdir({
    'docker.yaml': docker,
    'out.yaml': 'previous content\n',
    'failing-test.json': JSON.stringify([DOCKER_PATCH[1], { op: 'test', path: '/info/title', value: 'Not Docker' }]),
    'invalid-result.json': JSON.stringify([{ op: 'add', path: '/paths/~1containers~1json/get/responses/200/descriptio', value: 'typo' }]),
    'not-array.json': '{"op":"add","path":"/a","value":1}',
    'no-value.json': '[{"op":"replace","path":"/info/title"}]',
    'broken.json': '[{"op":',
  });
  const attempt = (patch) => runCli(['contract-diff', 'apply-patch', '--spec', 'docker.yaml', '--patch', patch, '--output', 'out.yaml'], { cwd: dir });
  const oneLine = (t, result, pattern) => {
    t.equal(result.code, 2);
    t.equal(result.stdout, '');
    t.match(result.stderr, pattern);
    t.equal(result.stderr.split('\n').length, 2, 'one line');
    t.equal(readFileSync(path.join(dir, 'out.yaml'), 'utf8'), 'previous content\n', 'the output file is untouched');
  };
  oneLine(t, await attempt('failing-test.json'), /^--patch failing-test\.json: does not apply to docker\.yaml: .*test/);
  oneLine(
    t,
    await attempt('invalid-result.json'),
    /^--patch invalid-result\.json: the patched docker\.yaml is not a valid description: .*descriptio.* at #\/paths\/~1containers~1json\/get\/responses\/200\/descriptio; nothing was written\n$/,
  );
  oneLine(t, await attempt('not-array.json'), /^--patch not-array\.json: a JSON Patch is an array of operations/);
  oneLine(t, await attempt('no-value.json'), /^--patch no-value\.json: operation 0: "replace" needs a "value"\n$/);
  oneLine(t, await attempt('broken.json'), /^--patch broken\.json: not JSON/);
  oneLine(t, await attempt('missing.json'), /^--patch missing\.json: cannot read \(ENOENT\); pass an existing file\n$/);
  writeFileSync(path.join(dir, 'ok.json'), '[]');
  oneLine(t, await runCli(['contract-diff', 'apply-patch', '--spec', 'nope.yaml', '--patch', 'ok.json', '--output', 'out.yaml'], { cwd: dir }), /^--spec nope\.yaml: cannot read \(ENOENT\)/);
});
