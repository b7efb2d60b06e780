// mock contract-diff compare as CI uses it: text, JSON and Markdown output, --fail-on exit codes,
// and one-line errors (exit 2) for inputs it cannot compare.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { parse, stringify } from 'yaml';
import { corpus, root, runMock } from '../helpers/cli.js';

const source = path.join(corpus, 'openapi', 'oai-v3.0-petstore.yaml');

/** old.yaml: the petstore; new.yaml: a path gone (breaking), the limit parameter gone (possibly breaking) and a status added (safe). */
function project(t) {
  const dir = t.testdir({});
  const doc = parse(readFileSync(source, 'utf8'));
  copyFileSync(source, path.join(dir, 'old.yaml'));
  delete doc.paths['/pets/{petId}'];
  doc.paths['/pets'].get.parameters = [];
  doc.paths['/pets'].post.responses['409'] = { description: 'taken' };
  writeFileSync(path.join(dir, 'new.yaml'), stringify(doc));
  writeFileSync(
    path.join(dir, 'warning-only.yaml'),
    stringify({ ...parse(readFileSync(source, 'utf8')), paths: { ...doc.paths, '/pets/{petId}': parse(readFileSync(source, 'utf8')).paths['/pets/{petId}'] } }),
  );
  return dir;
}

const compare = (dir, ...args) => runMock(['contract-diff', 'compare', '--old-spec', 'old.yaml', '--new-spec', 'new.yaml', ...args], { cwd: dir });

t.test('text output: a summary, breaking changes first', async (t) => {
  const dir = project(t);
  const { code, stdout, stderr } = await compare(dir);
  t.equal(code, 0, 'exit 0 without --fail-on');
  t.equal(stderr, '');
  const lines = stdout.trimEnd().split('\n');
  t.equal(lines[0], 'old.yaml → new.yaml: 3 changes: 1 breaking, 1 possibly breaking, 1 safe');
  t.match(lines[1], /^error +path-removed +\/pets\/\{petId\} #\/paths\/~1pets~1\{petId\}$/);
  t.match(lines[3], /^warning +request-parameter-removed +GET \/pets /);
  t.match(lines[5], /^info +response-status-added +POST \/pets /);
});

t.test('--format json and markdown', async (t) => {
  const dir = project(t);
  const json = await compare(dir, '--format', 'json');
  t.equal(json.code, 0);
  const report = JSON.parse(json.stdout);
  t.same(report.summary, { error: 1, warning: 1, info: 1 });
  t.equal(report.kind, 'openapi');
  t.same(report.changes[0], { id: 'path-removed', severity: 'error', kind: 'openapi', location: '/pets/{petId} #/paths/~1pets~1{petId}', message: '/pets/{petId}: path removed' });
  const markdown = await compare(dir, '--format', 'markdown');
  t.equal(markdown.code, 0);
  t.match(
    markdown.stdout,
    /^## API changes: old\.yaml → new\.yaml\n\n3 changes: 1 breaking, 1 possibly breaking, 1 safe\.\n\n\| Severity \| Check \| Where \| Change \|\n\| --- \| --- \| --- \| --- \|\n/,
  );
  t.match(markdown.stdout, /\| 🔴 breaking \| `path-removed` \| `\/pets\/\{petId\} #\/paths\/~1pets~1\{petId\}` \| \/pets\/\{petId\}: path removed \|/);
  t.match(markdown.stdout, /\| 🟠 possibly breaking \| `request-parameter-removed` \|/);
});

t.test('--fail-on: exit 1 when a change of that severity or worse exists', async (t) => {
  const dir = project(t);
  t.equal((await compare(dir, '--fail-on', 'error')).code, 1, 'a breaking change fails --fail-on error');
  t.equal((await compare(dir, '--fail-on', 'warning')).code, 1);
  const warningOnly = (flag) => runMock(['contract-diff', 'compare', '--old-spec', 'old.yaml', '--new-spec', 'warning-only.yaml', '--fail-on', flag], { cwd: dir });
  t.equal((await warningOnly('error')).code, 0, 'a possibly breaking change passes --fail-on error');
  t.equal((await warningOnly('warning')).code, 1, 'and fails --fail-on warning');
  const same = await runMock(['contract-diff', 'compare', '--old-spec', 'old.yaml', '--new-spec', 'old.yaml', '--fail-on', 'warning'], { cwd: dir });
  t.equal(same.code, 0);
  t.equal(same.stdout, 'old.yaml → old.yaml: no changes\n');
  const bad = await compare(dir, '--fail-on', 'info');
  t.equal(bad.code, 2);
  t.match(bad.stderr, /--fail-on=info to be one of: error, warning/);
});

t.test('bad inputs: one line naming the input and the fix, exit 2', async (t) => {
  const dir = project(t);
  writeFileSync(path.join(dir, 'broken.yaml'), 'openapi: 3.0.0\npaths: {\n  /a: [\n');
  writeFileSync(path.join(dir, 'schema.graphql'), 'type Query { a: String }\n');
  writeFileSync(path.join(dir, 'other.graphql'), 'type Query { b: String }\n');
  writeFileSync(path.join(dir, 'notes.txt'), 'hello\n');
  writeFileSync(path.join(dir, 'asyncapi.yaml'), 'asyncapi: 2.6.0\n');
  const fails = async (oldSpec, newSpec, pattern) => {
    const { code, stdout, stderr } = await runMock(['contract-diff', 'compare', '--old-spec', oldSpec, '--new-spec', newSpec], { cwd: dir });
    t.equal(code, 2, `${oldSpec} ${newSpec}: exit 2`);
    t.equal(stdout, '');
    t.equal(stderr.trimEnd().split('\n').length, 1, stderr);
    t.match(stderr, pattern);
  };
  await fails('missing.yaml', 'new.yaml', /^--old-spec missing\.yaml: not found \(checked .*missing\.yaml; pass an existing file or folder\)$/m);
  await fails('old.yaml', 'broken.yaml', /^broken\.yaml:\d+:\d+: invalid YAML\/JSON: .*\(fix the syntax at that position\)$/m);
  await fails('old.yaml', 'schema.graphql', /^--old-spec old\.yaml is OpenAPI but --new-spec schema\.graphql is GraphQL: compare two versions of one kind$/m);
  writeFileSync(path.join(dir, 'broken.graphql'), 'type Query { a: \n');
  await fails('schema.graphql', 'broken.graphql', /broken\.graphql/);
  await fails('old.yaml', 'notes.txt', /^--new-spec notes\.txt: unknown description kind \(expected OpenAPI/m);
  await fails('old.yaml', 'asyncapi.yaml', /^asyncapi\.yaml: unsupported description version/m);
  const missingFlag = await runMock(['contract-diff', 'compare', '--old-spec', 'old.yaml'], { cwd: dir });
  t.equal(missingFlag.code, 2);
  t.match(missingFlag.stderr, /Missing required flag new-spec/);
});

t.test('GraphQL schemas and .proto folders compare through the same command, output and --fail-on', async (t) => {
  const dir = project(t);
  writeFileSync(path.join(dir, 'old.graphql'), 'type Query { user(id: ID!): User }\ntype User { id: ID! name: String email: String }\n');
  writeFileSync(path.join(dir, 'new.graphql'), 'type Query { user(id: ID!): User }\ntype User { id: ID! name: String }\n');
  const graphql = await runMock(['contract-diff', 'compare', '--old-spec', 'old.graphql', '--new-spec', 'new.graphql', '--format', 'json', '--fail-on', 'error'], { cwd: dir });
  t.equal(graphql.code, 1, graphql.stderr);
  const report = JSON.parse(graphql.stdout);
  t.match(report.changes, [{ id: 'field-removed', severity: 'error', kind: 'graphql', location: 'User.email' }]);
  for (const side of ['old-proto', 'new-proto']) mkdirSync(path.join(dir, side));
  const message = (extra) => `syntax = "proto3";\npackage shop;\nservice Shop { rpc Get (Item) returns (Item); }\nmessage Item { string id = 1; ${extra} }\n`;
  writeFileSync(path.join(dir, 'old-proto', 'shop.proto'), message(''));
  writeFileSync(path.join(dir, 'new-proto', 'shop.proto'), message('int32 count = 2;'));
  const proto = await runMock(['contract-diff', 'compare', '--old-spec', 'old-proto', '--new-spec', 'new-proto', '--fail-on', 'warning'], { cwd: dir });
  t.equal(proto.code, 0, `a field added is safe\n${proto.stdout}${proto.stderr}`);
  t.match(proto.stdout, /field-added/);
});

t.test('docs/contract-diff.md lists every OpenAPI check with its severity and side', async (t) => {
  const { OPENAPI_CHECKS } = await import('../../dist/src/drift/compare/index.js');
  const docs = readFileSync(path.join(root, 'docs', 'contract-diff.md'), 'utf8');
  const table = docs.slice(docs.indexOf('### Checks'), docs.indexOf('## Errors'));
  const rows = new Set(table.split('\n').filter((line) => line.startsWith('| `')));
  for (const [id, { severity, side, meaning }] of Object.entries(OPENAPI_CHECKS)) t.ok(rows.has(`| \`${id}\` | ${severity} | ${side} | ${meaning} |`), id);
  t.equal(rows.size, Object.keys(OPENAPI_CHECKS).length, 'and no other check');
});

t.test('contract_diff.severities of mock.yaml changes the severity a check reports with, and so --fail-on', async (t) => {
  const dir = project(t);
  writeFileSync(path.join(dir, 'mock.yaml'), 'contract_diff:\n  severities:\n    path-removed: warning\n    request-parameter-removed: info\n');
  const { code, stdout } = await compare(dir, '--format', 'json', '--fail-on', 'error');
  t.equal(code, 0, 'nothing breaking is left');
  const report = JSON.parse(stdout);
  t.same(report.summary, { error: 0, warning: 1, info: 2 });
  t.match(report.changes[0], { id: 'path-removed', severity: 'warning' });
  t.equal((await compare(dir, '--fail-on', 'warning')).code, 1);
  writeFileSync(path.join(dir, 'strict.yaml'), 'contract_diff:\n  severities:\n    response-status-added: error\n');
  t.equal(
    (await runMock(['contract-diff', 'compare', '-c', 'strict.yaml', '--old-spec', 'old.yaml', '--new-spec', 'warning-only.yaml', '--fail-on', 'error'], { cwd: dir })).code,
    1,
    'a safe check made breaking',
  );
  writeFileSync(path.join(dir, 'bad.yaml'), 'contract_diff:\n  severities:\n    path-removed: fatal\n');
  const bad = await runMock(['contract-diff', 'compare', '-c', 'bad.yaml', '--old-spec', 'old.yaml', '--new-spec', 'new.yaml'], { cwd: dir });
  t.equal(bad.code, 2);
  t.equal(bad.stderr, 'bad.yaml: contract_diff.severities.path-removed: expected one of error, warning, info, got "fatal"\n');
});
