// mock build (and what reads the same inputs: --check, config validate, config show, serve's
// staleness) with a GraphQL schema, through the real CLI: SDL files, globs, introspection results,
// and every way a schema can be wrong, each said in one line naming the file and its own line.
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, introspectionFromSchema } from 'graphql';
import t from 'tap';
import { corpus, runCli, sideBySide, startCommand } from '../helpers/cli.js';

const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const swapi = readFileSync(path.join(corpus, 'graphql', 'swapi.graphql'), 'utf8');

/** Independent runs side by side, a few at a time (two cores). */
const runAll = (runs) => sideBySide(runs.map(([args, options]) => () => runCli(args, options)), 3);

/** Nothing on stdout, exactly one line on stderr (matching `line`), exit 1. */
function failsWith(t, result, line) {
  t.equal(result.stdout, '', 'nothing on stdout');
  if (typeof line === 'string') t.equal(result.stderr, `${line}\n`, 'one line on stderr');
  else t.match(result.stderr, line, 'the line on stderr');
  t.equal(result.stderr.split('\n').length, 2, 'one line');
  t.equal(result.code, 1, 'exit 1');
}

const introspection = JSON.stringify({ data: introspectionFromSchema(buildSchema(swapi)) });

// swapi.graphql built once for the file (beside the build of its introspection result): the first
// test reads that build, and the tests that change the schema of a built project (a stale --check,
// serve's rebuild) get copies of it. The file's one server starts on its copy at once, and its
// start (a rebuild) runs beside the tests before the one that reads it.
const fixtures = t.testdir({
  project: { 'swapi.graphql': swapi },
  introspected: {
    'swapi.json': introspection,
    'api.json': JSON.stringify({ openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } }),
  },
});
const swapiProject = path.join(fixtures, 'project');
const introspectedProject = path.join(fixtures, 'introspected');
const [swapiBuild, introspectedBuild] = await runAll([
  [['build', '--graphql-schema', 'swapi.graphql'], { cwd: swapiProject }],
  [['build', '--spec', 'api.json', '--graphql-schema', 'swapi.json', '--json'], { cwd: introspectedProject }],
]);
const swapiCopy = (name) => {
  const copy = path.join(fixtures, name);
  cpSync(swapiProject, copy, { recursive: true });
  return copy;
};
const changedProject = swapiCopy('changed');
const servedProject = swapiCopy('served');
// serve with the schema changed since the build: it rebuilds first
appendFileSync(path.join(servedProject, 'swapi.graphql'), '\nextend type Film { rating: Int }\n');
const serverStarted = startCommand(
  ['serve', '--graphql-schema', 'swapi.graphql', '--graphql-port', '0', '--host', '127.0.0.1', '--admin', '--admin-port', '0'],
  /admin on (http:\/\/\S+)/,
  { cwd: servedProject },
);
serverStarted.catch(() => {}); // a failed start is the serve test's failure, where it is awaited
t.teardown(async () => (await serverStarted.catch(() => null))?.stop());

t.test('a schema alone builds schema.graphql and a manifest, named after its file; --check sees a changed file', async (t) => {
  const cwd = swapiProject;
  const built = swapiBuild;
  t.equal(built.code, 0, built.stderr);
  t.equal(built.stdout, 'mock: built swapi in generated/swapi (2 written, 0 unchanged)\n  wrote generated/swapi/schema.graphql\n  wrote generated/swapi/manifest.json\n');
  const schema = readFileSync(path.join(cwd, 'generated', 'swapi', 'schema.graphql'), 'utf8');
  t.match(schema, /^# mock build: generated from .*\n# mock build: \.\.\/\.\.\/swapi\.graphql\n/, 'a header, then each file after a comment naming it from the build folder');
  t.ok(schema.endsWith(swapi.endsWith('\n') ? swapi : `${swapi}\n`), 'the SDL as given');
  const manifest = JSON.parse(readFileSync(path.join(cwd, 'generated', 'swapi', 'manifest.json'), 'utf8'));
  t.same(Object.keys(manifest.files), ['schema.graphql'], 'no HTTP mock without a description');
  t.same(manifest.graphql.sources.map((s) => s.source), ['../../swapi.graphql']);
  t.same(Object.keys(manifest.input_files), ['../../swapi.graphql'], 'the file is hashed: serve tells a fresh build from bytes');

  // the schema changed in a copy of the built project, checked beside the second build and check
  const changed = changedProject;
  appendFileSync(path.join(changed, 'swapi.graphql'), '\ntype Extra { id: ID }\n');
  const [again, fresh, stale] = await runAll([
    [['build', '--graphql-schema', 'swapi.graphql', '--json'], { cwd }],
    [['build', '--graphql-schema', 'swapi.graphql', '--check'], { cwd }],
    [['build', '--graphql-schema', 'swapi.graphql', '--check'], { cwd: changed }],
  ]);
  t.same(JSON.parse(again.stdout).written, [], 'deterministic: a second build writes nothing');
  t.same(fresh, { code: 0, stdout: 'mock: generated/swapi is up to date\n', stderr: '' });

  t.equal(stale.code, 1);
  t.equal(stale.stderr, 'generated/swapi/manifest.json is stale: run mock build\ngenerated/swapi/schema.graphql is stale: run mock build\n');
});

t.test('files and globs make one SDL in order (a glob sorted), so a later file extends an earlier one', async (t) => {
  const files = (yaml = '') => ({
    'mock.yaml': `graphql:\n  schema: [base.graphql, "parts/*.graphql"]\n${yaml}`,
    'base.graphql': 'type Query {\n  me: User\n}\n\ntype User {\n  id: ID!\n}',
    parts: {
      'b.graphql': 'extend type User {\n  friend: Friend\n}\n',
      'a.graphql': 'extend type User {\n  name: String\n}\ntype Friend { since: Int }\n',
      'notes.txt': 'not matched',
    },
    generated: { old: { 'schema.graphql': 'type Query { stale: Int }\n' } },
    node_modules: { x: { 'lib.graphql': 'type Query { other: Int }\n' } },
  });
  // the same project twice: the second with graphql.overrides, validated beside the first's build
  const dir = t.testdir({
    project: files(),
    overridden: files('  overrides: { Usr: { id: "1" }, User: { nmae: Ann } }\n'),
  });
  const cwd = path.join(dir, 'project');
  const [built, validated, overrides] = await runAll([
    [['build'], { cwd }],
    [['config', 'validate'], { cwd }],
    [['config', 'validate'], { cwd: path.join(dir, 'overridden') }],
  ]);
  t.equal(built.code, 0, built.stderr);
  t.match(built.stdout, /^mock: built base in generated\/base /, 'named after the first file');
  const schema = readFileSync(path.join(cwd, 'generated', 'base', 'schema.graphql'), 'utf8');
  const order = ['# mock build: ../../base.graphql', '# mock build: ../../parts/a.graphql', '# mock build: ../../parts/b.graphql'].map((line) => schema.indexOf(`\n${line}\n`));
  t.ok(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1])), 'in the order given, the glob sorted');
  t.notMatch(schema, /stale|other/, 'neither the builds folder nor node_modules is matched');
  t.match(schema, 'type User {\n  id: ID!\n}\n# mock build: ../../parts/a.graphql\n', 'a file without a final newline gets one');
  t.equal(validated.code, 0, validated.stderr);
  t.match(validated.stdout, '\n  GraphQL: base.graphql, parts/a.graphql, parts/b.graphql (3 types; 1 query, 0 mutations, 0 subscriptions)\n');
  t.notMatch(validated.stdout, 'warning: no specs', 'a GraphQL schema alone is a project');

  // graphql.overrides checked against the schema, one line each naming the setting
  t.equal(overrides.code, 1);
  t.match(overrides.stderr, /^mock\.yaml: graphql\.overrides\.Usr: .*User.*\nmock\.yaml: graphql\.overrides\.User\.nmae: .*name.*\n$/);

  // a file the glob newly matches makes the build stale
  writeFileSync(path.join(cwd, 'parts', 'c.graphql'), 'extend type Friend { note: String }\n');
  const stale = await runCli(['build', '--check'], { cwd });
  t.equal(stale.code, 1);
  t.match(stale.stderr, 'generated/base/schema.graphql is stale: run mock build\n');
});

t.test('an introspection result builds as the SDL it describes, with an OpenAPI description beside it', async (t) => {
  // built at the start of the file, beside the swapi build
  const cwd = introspectedProject;
  const built = introspectedBuild;
  t.equal(built.code, 0, built.stderr);
  const result = JSON.parse(built.stdout);
  t.equal(result.name, 'api', 'named after the description');
  t.ok(result.written.includes('schema.graphql') && result.written.includes('routes.js'), 'both the HTTP mock and the schema');
  const schema = readFileSync(path.join(cwd, 'generated', 'api', 'schema.graphql'), 'utf8');
  t.match(schema, '# mock build: ../../swapi.json (introspection result, as SDL)\n');
  t.match(schema, /\ntype Film implements Node \{/);
});

t.test('a schema that does not build: one line per problem, in its own file at its own line and column', async (t) => {
  const cwd = t.testdir({
    'a.graphql': 'type Query {\n  me: User\n}\n\ntype User { id: ID! }\n',
    'b.graphql': '# the second file\nextend type User {\n  friend: Usr\n}\n',
    'c.graphql': 'type Query {\n  ok: Int\n  bad(: Int\n}\n',
    'broken.json': '{"data": ',
    'other.json': '{"data": {"nothing": 1}}',
    'notes.md': '# not a schema',
    'mock.yaml': 'graphql:\n  schema: missing.graphql\n',
  });
  const [unknownType, syntax, json, notIntrospection, extension, missingFlag, missingFile, noMatch, folder] = await runAll([
    [['build', '--graphql-schema', 'a.graphql', '--graphql-schema', 'b.graphql'], { cwd }],
    [['build', '--graphql-schema', 'c.graphql'], { cwd }],
    [['build', '--graphql-schema', 'broken.json'], { cwd }],
    [['build', '--graphql-schema', 'other.json'], { cwd }],
    [['build', '--graphql-schema', 'notes.md'], { cwd }],
    [['build', '--graphql-schema', 'nope.graphql'], { cwd }],
    [['build'], { cwd }],
    [['build', '--graphql-schema', 'schema/**/*.graphql'], { cwd }],
    [['build', '--graphql-schema', '.'], { cwd }],
  ]);
  failsWith(t, unknownType, /^b\.graphql:3:11: .*Usr.* \(fix the schema there\)\n$/);
  failsWith(t, syntax, /^c\.graphql:3:7: Syntax Error: .* \(fix the schema there\)\n$/);
  failsWith(t, json, /^broken\.json: not JSON \(.+\); an introspection result is the JSON answer of an introspection query/);
  failsWith(t, notIntrospection, /^other\.json: not a GraphQL introspection result \(.+\); give the JSON answer of an introspection query .* or an SDL file\n$/);
  failsWith(t, extension, 'notes.md: not a GraphQL schema file: expected SDL (.graphql, .gql, .graphqls) or an introspection result (.json); rename it, or convert it');
  failsWith(t, missingFlag, 'GraphQL schema not found: nope.graphql (checked --graphql-schema)');
  failsWith(t, missingFile, 'GraphQL schema not found: missing.graphql (checked graphql.schema in mock.yaml)');
  failsWith(t, noMatch, `GraphQL schema glob "schema/**/*.graphql" matches no file under ${cwd}; fix the pattern (node_modules and the builds' folder are never matched)`);
  failsWith(t, folder, 'GraphQL schema . is a folder: name its files, or a glob such as **/*.graphql');
  t.notOk(existsSync(path.join(cwd, 'generated')), 'nothing written');
});

t.test("what a glob matches stays in the project, as a description's external $refs do", async (t) => {
  const dir = t.testdir({ project: { 'own.graphql': 'type Query { a: Int }\n' }, elsewhere: { 'secret.graphql': 'type Secret { b: Int }\n' } });
  const cwd = path.join(dir, 'project');
  mkdirSync(path.join(cwd, 'linked'));
  symlinkSync(path.join(dir, 'elsewhere', 'secret.graphql'), path.join(cwd, 'linked', 'secret.graphql'));
  const [refused, outside, allowed, named] = await runAll([
    [['build', '--graphql-schema', '**/*.graphql'], { cwd }],
    [['build', '--graphql-schema', 'own.graphql', '--graphql-schema', '../elsewhere/*.graphql'], { cwd }],
    [['build', '--graphql-schema', '**/*.graphql', '--allow-ref', '../elsewhere'], { cwd }],
    [['build', '--graphql-schema', 'own.graphql', '--graphql-schema', '../elsewhere/secret.graphql', '--name', 'named'], { cwd }],
  ]);
  failsWith(
    t,
    refused,
    `GraphQL schema glob "**/*.graphql" matches ${path.join(dir, 'elsewhere', 'secret.graphql')}, outside the project ${cwd}: what a glob matches must stay in the project (pass --allow-ref ${path.join(dir, 'elsewhere')} to allow it, or name the file itself)`,
  );
  failsWith(t, outside, /^GraphQL schema glob "\.\.\/elsewhere\/\*\.graphql" matches \S+secret\.graphql, outside the project /);
  t.equal(allowed.code, 0, allowed.stderr);
  t.equal(named.code, 0, `a file named is read where it is: ${named.stderr}`);
});

t.test('bad settings of the graphql section are one line each, naming the key', async (t) => {
  const cwd = t.testdir({
    'schema.graphql': 'type Query { a: Int }\n',
    bad: { 'mock.yaml': 'graphql:\n  schema: ../schema.graphql\n  path: graphql\n  list_length: { min: 5, max: 3 }\n' },
    // the same settings with the path fixed: the next problem said (run beside the others)
    fixed: { 'mock.yaml': 'graphql:\n  schema: ../schema.graphql\n  list_length: { min: 5, max: 3 }\n' },
  });
  const [file, env, flag, next] = await runAll([
    [['build'], { cwd: path.join(cwd, 'bad') }],
    [['build', '--graphql-schema', 'schema.graphql'], { cwd, env: { MOCK_GRAPHQL_PORT: 'x' } }],
    [['serve', '--graphql-schema', 'schema.graphql', '--graphql-port', '70000'], { cwd }],
    [['build'], { cwd: path.join(cwd, 'fixed') }],
  ]);
  t.equal(file.code, 1);
  t.equal(file.stderr, 'mock.yaml: graphql.path: expected a path starting with / (no spaces, ? or #), got "graphql"\n', 'the schema first');
  failsWith(t, env, 'MOCK_GRAPHQL_PORT: expected integer, got "x"');
  failsWith(t, flag, '--graphql-port: expected integer <= 65535, got 70000');
  failsWith(t, next, 'mock.yaml: graphql.list_length.min: expected integer <= graphql.list_length.max (3), got 5');
});

t.test('MOCK_GRAPHQL_PORT and MOCK_GRAPHQL_SCHEMA set their keys; flags win', async (t) => {
  const cwd = t.testdir({ 'a.graphql': 'type Query { a: Int }\n', 'b.graphql': 'extend type Query { b: Int }\n' });
  const env = { MOCK_GRAPHQL_PORT: '4100', MOCK_GRAPHQL_SCHEMA: ['a.graphql', 'b.graphql'].join(path.delimiter) };
  const [shown, flagged, built] = await runAll([
    [['config', 'show'], { cwd, env }],
    [['config', 'show', '--graphql-port', '0', '--graphql-schema', 'b.graphql'], { cwd, env }],
    [['build'], { cwd, env }],
  ]);
  t.match(shown.stdout, '\n  graphql_port: 4100 # from env\n');
  t.match(shown.stdout, `\n  schema: # from env\n    - ${path.join(cwd, 'a.graphql')}\n    - ${path.join(cwd, 'b.graphql')}\n`);
  t.match(flagged.stdout, '\n  graphql_port: 0 # from flag\n');
  t.match(flagged.stdout, `\n  schema: # from flag\n    - ${path.join(cwd, 'b.graphql')}\n`);
  t.equal(built.code, 0, built.stderr);
  t.match(readFileSync(path.join(cwd, 'generated', 'a', 'schema.graphql'), 'utf8'), 'extend type Query { b: Int }');
});

t.test('mock serve with a schema alone: no HTTP mock, a rebuild when the schema changed, and what cannot run without one', async (t) => {
  const cwd = t.testdir({ 'swapi.graphql': swapi });
  const [clash, embedded] = await runAll([
    [['serve', '--graphql-schema', 'swapi.graphql', '--admin', '--graphql-port', '9080'], { cwd }],
    [['serve', '--graphql-schema', 'swapi.graphql', '--admin-embed'], { cwd }],
  ]);
  failsWith(t, clash, '--graphql-port and admin.port (default) are both 9080: the GraphQL mock and the admin server cannot share a port; set one of them to another port (0 picks a free one)');
  failsWith(
    t,
    embedded,
    '--admin-embed: the embedded admin is served by the HTTP mock, which runs only with an API description, and this run has a GraphQL schema alone; run the admin on its own port (--admin, admin.port) or give a description with --spec',
  );

  // the file's server, started at its start on a copy of the file's swapi build, its schema changed since
  const built = swapiBuild;
  t.equal(built.code, 0, built.stderr);
  const served = servedProject;
  const server = await serverStarted;
  t.teardown(() => server.stop());
  t.match(server.stdout, 'mock: rebuilt generated/swapi (2 file(s) written)\n', 'the changed schema is rebuilt first');
  t.notMatch(server.stdout, 'serving on', 'no HTTP mock runs');
  t.match(readFileSync(path.join(served, 'generated', 'swapi', 'schema.graphql'), 'utf8'), 'rating: Int');
  const health = await fetch(`${server.url}/__mock/health`);
  t.equal(health.status, 200, 'the admin runs on its own port');
  t.match(server.stdout, /\nmock: GraphQL on http:\/\/127\.0\.0\.1:\d+\/graphql\n/, 'the GraphQL line with its bound port');
});
