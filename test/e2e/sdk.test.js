// The embedding SDK as a user reaches it: `import { startMockServer } from 'mock-compiler'` (the
// package's main entry, resolved through its exports), with the conditional proxy's rules and the
// reality continuum given as options; option mistakes reject with one line naming the option; the
// entry's types resolve and check a consumer's code.
import t from 'tap';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Project, ts } from 'ts-morph';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { MockError, startMockServer } from 'mock-compiler';
import { root, tmpdir } from '../helpers/cli.js';
import { connect } from '../helpers/websocket.js';
import { CONTINUUM_SPEC, ITEMS, ITEM_SCHEMA, getMany, startUpstream } from '../helpers/continuum.js';

const upstream = await startUpstream(t);
const dir = tmpdir();
writeFileSync(path.join(dir, 'continuum.yaml'), CONTINUUM_SPEC);
const options = {
  spec: 'continuum.yaml',
  cwd: dir,
  server: { http_port: 0, ws_port: 0, graphql_port: 0, bind: '127.0.0.1' },
  graphql: { schema: path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql'), overrides: { User: { name: 'From code' } } },
  websocket: { routes: [{ path: '/hi/{name}', on_open: ['hi {{request.path.name}}'] }] },
  logging: { level: 'warn' },
  proxy: { upstream_url: upstream.url, rules: [{ pattern: '/r/live/*', condition: "header[x-env] == 'live'" }] },
  reality_continuum: { enabled: true, merge_strategy: 'body_blend', routes: [{ pattern: '/r/blend/*', ratio: 0.5 }] },
};
const mock = await startMockServer(options);
t.teardown(() => mock.close());

t.test('a server from code: its URL, the proxy rule, the mock elsewhere', async (t) => {
  t.match(mock.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.equal(mock.url, `http://127.0.0.1:${mock.port}`);
  const live = await (await fetch(`${mock.url}/r/live/1`, { headers: { 'x-env': 'live' } })).json();
  t.same(live, ITEMS.upstream, 'the rule holds: the upstream answers');
  t.same(await (await fetch(`${mock.url}/r/live/1`)).json(), ITEMS.mock, 'it does not: the mock');
});

t.test('the WebSocket server from code: its URL and a route', async (t) => {
  t.match(mock.wsUrl, /^ws:\/\/127\.0\.0\.1:\d+$/);
  const client = await connect(`${mock.wsUrl}/hi/ann`);
  t.equal((await client.next()).text, 'hi ann', 'on_open with the path parameter');
  client.close();
  await client.closed;
});

t.test('the GraphQL server from code: its URL, the schema and an override', async (t) => {
  t.match(mock.graphqlUrl, /^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
  const response = await fetch(mock.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ me { name } }' }) });
  t.same(await response.json(), { data: { me: { name: 'From code' } } });
});

t.test('body_blend: numbers that are neither integers nor identifiers averaged, the rest one side’s', async (t) => {
  const validate = addFormats.default(new Ajv()).compile(ITEM_SCHEMA);
  const answers = await getMany(Array.from({ length: 50 }, (_, i) => `${mock.url}/r/blend/${i}`), 8);
  for (const { source, body } of answers) {
    const item = JSON.parse(body);
    t.equal(source, 'blend');
    t.equal(item.score, 0.5, 'score: (0.25 + 0.75) / 2');
    t.ok([1, 7].includes(item.count) && [ITEMS.mock.id, ITEMS.upstream.id].includes(item.id), 'the integer count and the id are one side’s');
    t.ok(validate(item), 'valid against the schema');
  }
});

t.test('option mistakes reject with a MockError, one line per mistake, naming the option', async (t) => {
  const bad = (over) => startMockServer({ ...options, ...over });
  await t.rejects(bad({ proxy: { rules: [{ pattern: '/x', upstream_url: upstream.url, condition: "$.user.role = 'admin'" }] } }), {
    name: 'MockError',
    code: 'MOCK_ERR_CONFIG_INVALID',
    message: 'startMockServer options: proxy.rules[0].condition: expected a comparison (==, !=, <, <=, >, >=), found "=" at position 13',
  });
  await t.rejects(bad({ server: { http_port: 'x' } }), { message: 'startMockServer options: server.http_port: expected integer, got "x"' });
  await t.rejects(bad({ proxy: {} }), { message: /^startMockServer options: reality_continuum\.enabled: the reality continuum needs an upstream/ });
  const error = await bad({ spec: 'nowhere.yaml' }).catch((e) => e);
  t.ok(error instanceof MockError, 'the MockError the package exports');
  t.equal(error.code, 'MOCK_ERR_SPEC_NOT_FOUND');
});

t.test('the entry’s types resolve and check a user’s code', async (t) => {
  // a user's project with the package installed (a link to this one) and Node's types
  const home = tmpdir();
  mkdirSync(path.join(home, 'node_modules'));
  symlinkSync(root, path.join(home, 'node_modules', 'mock-compiler'), 'dir');
  symlinkSync(path.join(root, 'node_modules', '@types'), path.join(home, 'node_modules', '@types'), 'dir');
  writeFileSync(path.join(home, 'package.json'), '{"type": "module"}');
  const file = path.join(home, 'use.ts');
  writeFileSync(
    file,
    `import { startMockServer, type MockServerOptions } from 'mock-compiler';
const options: MockServerOptions = {
  spec: 'api.yaml',
  server: { http_port: 0 },
  proxy: { rules: [{ pattern: '/v1/admin/**', upstream_url: 'http://localhost:8080', condition: "$.user.role == 'admin'" }] },
  reality_continuum: { enabled: true, merge_strategy: 'weighted', default_ratio: 0.3 },
};
const mock = await startMockServer(options);
const url: string = mock.url;
await mock.close();
// @ts-expect-error a rule needs its pattern
const broken: MockServerOptions = { proxy: { rules: [{ condition: 'header[a]' }] } };
// @ts-expect-error merge strategies are named
const unnamed: MockServerOptions = { reality_continuum: { merge_strategy: 'blend' } };
export { url, broken, unnamed };
`,
  );
  const compilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, skipLibCheck: true, types: ['node'] };
  const resolved = ts.resolveModuleName('mock-compiler', file, compilerOptions, ts.sys).resolvedModule?.resolvedFileName;
  t.equal(resolved && realpathSync(resolved), realpathSync(path.join(root, 'dist/src/sdk/index.d.ts')), 'the types entry of the package');
  // ts-morph's project: its TypeScript carries the standard library in memory
  const checker = new Project({ compilerOptions });
  checker.addSourceFileAtPath(file);
  checker.resolveSourceFileDependencies();
  const text = (message) => (typeof message === 'string' ? message : message.getMessageText());
  const problems = checker.getPreEmitDiagnostics().map((d) => text(d.getMessageText()));
  t.same(problems, [], 'the consumer compiles, and each @ts-expect-error meets its error');
});
