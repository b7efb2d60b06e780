// compiler/emit/router: path templates -> tree -> emitted TypeScript matcher. The emitted code is
// transpiled and imported, then driven the way the engine drives it (path split on "/").
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ts } from 'ts-morph';
import { buildTree, emitRouter, parseTemplate, paramNames } from '../../dist/compiler/emit/router/index.js';
import { segmentKey } from '../../dist/compiler/emit/router/segments.js';
import { emitRoutes } from '../../dist/compiler/emit/routes.js';
import { registerSchemas } from '../../dist/compiler/emit/ajv-schemas.js';
import { buildIr } from '../../dist/compiler/ir/index.js';
import { lowerCustomRoutes } from '../../dist/compiler/ir/custom-routes.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-test-'));
t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
let loaded = 0;
/** Transpiles emitted TypeScript and imports it from a temp .mjs file (readable stack traces). */
const load = async (source) => {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = path.join(tmp, `router-${loaded++}.mjs`);
  fs.writeFileSync(file, js);
  return import(pathToFileURL(file).href);
};

/** Entries as [method, path] (operations, rank 100) or full objects. */
const router = async (list) => {
  const entries = list.map((e, index) => (Array.isArray(e) ? { kind: 'op', index, method: e[0], path: e[1], rank: 100 } : e));
  const source = emitRouter(buildTree(entries));
  const mod = await load(source);
  return { source, entries, match: (url) => run(mod.match, url) };
};

/** As runtime/terminal/openapi/router.ts splitPath does (without percent-decoding). */
const split = (url) => (url === '/' || url === '' ? [''] : (url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url).split('/'));

const run = (match, url) => {
  const values = [];
  const terminal = match(split(url), values);
  return { terminal, values };
};

/** The operation a GET (or given method) would reach, with its parameters by name. */
const hit = (r, url, method = 'GET') => {
  const { terminal, values } = r.match(url);
  if (!terminal) return undefined;
  const candidates = terminal.methods[method] ?? terminal.any;
  if (!candidates) return { allow: terminal.allow };
  const [first] = candidates;
  const entry = r.entries.find((e) => e.kind === first.kind && e.index === first.index);
  return { path: entry.path, params: Object.fromEntries(first.names.map((n, i) => [n, values[i]])), values };
};

t.test('parseTemplate classifies segments', (t) => {
  t.same(parseTemplate('/'), []);
  t.same(parseTemplate('/pets/'), [{ kind: 'static', value: 'pets' }], 'trailing slash ignored');
  t.same(parseTemplate('/pets/{id}'), [{ kind: 'static', value: 'pets' }, { kind: 'param', prefix: '', suffix: '', name: 'id' }]);
  t.same(parseTemplate('/Accounts/{Sid}.json'), [{ kind: 'static', value: 'Accounts' }, { kind: 'param', prefix: '', suffix: '.json', name: 'Sid' }]);
  t.same(parseTemplate('/v{major}'), [{ kind: 'param', prefix: 'v', suffix: '', name: 'major' }]);
  t.same(parseTemplate('/{a}-{b}'), [{ kind: 'pattern', literals: ['', '-', ''], names: ['a', 'b'] }]);
  t.same(parseTemplate('/r/{from}..{to}.csv'), [{ kind: 'static', value: 'r' }, { kind: 'pattern', literals: ['', '..', '.csv'], names: ['from', 'to'] }], 'the text around the parameters');
  t.same(parseTemplate('/files/**'), [{ kind: 'static', value: 'files' }, { kind: 'rest' }]);
  t.same(parseTemplate('/a/**/b'), [{ kind: 'static', value: 'a' }, { kind: 'static', value: '**' }, { kind: 'static', value: 'b' }], '** only counts last');
  t.same(parseTemplate('/users/@me'), [{ kind: 'static', value: 'users' }, { kind: 'static', value: '@me' }]);
  t.same(paramNames(parseTemplate('/a/{x}/{y}-{z}/b/**')), ['x', 'y', 'z', '**']);
  t.equal(segmentKey(parseTemplate('/{id}')[0]), segmentKey(parseTemplate('/{petId}')[0]), 'parameter names do not split nodes');
  t.not(segmentKey(parseTemplate('/{id}.json')[0]), segmentKey(parseTemplate('/{id}')[0]));
  t.end();
});

t.test('buildTree shares nodes between templates of the same shape', (t) => {
  const root = buildTree([
    { kind: 'op', index: 0, method: 'GET', path: '/pets/{id}', rank: 100 },
    { kind: 'op', index: 1, method: 'DELETE', path: '/pets/{petId}', rank: 100 },
    { kind: 'route', index: 0, method: 'GET', path: '/pets/{x}', rank: 10 },
  ]);
  const pets = root.children.get('s:pets');
  t.equal(pets.children.size, 1);
  const param = [...pets.children.values()][0];
  t.same([...param.methods.keys()], ['GET', 'DELETE']);
  t.same(param.methods.get('GET').map((c) => [c.kind, c.index, c.names, c.rank]), [['op', 0, ['id'], 100], ['route', 0, ['x'], 10]], 'each candidate keeps its own names');
  t.same(param.methods.get('DELETE')[0].names, ['petId']);
  t.end();
});

t.test('static segments beat parameters, whatever the declaration order', async (t) => {
  const r = await router([['GET', '/pets/{id}'], ['GET', '/pets/mine'], ['GET', '/pets/{id}/toys'], ['GET', '/pets/mine/toys']]);
  t.same(hit(r, '/pets/mine'), { path: '/pets/mine', params: {}, values: [] });
  t.same(hit(r, '/pets/7').params, { id: '7' });
  t.same(hit(r, '/pets/mine/toys').path, '/pets/mine/toys');
  t.same(hit(r, '/pets/mines').params, { id: 'mines' }, 'static is an exact segment, not a prefix');
  t.same(hit(r, '/pets/7/toys'), { path: '/pets/{id}/toys', params: { id: '7' }, values: ['7'] });
  t.same(hit(r, '/pets/'), undefined, 'trailing slash: /pets itself has no operation');
  t.same(hit(r, '/pets/7/'), hit(r, '/pets/7'), 'trailing slash ignored');
  t.equal(hit(r, '/pets//toys'), undefined, 'empty segments never bind a parameter');
  t.equal(hit(r, '/Pets/7'), undefined, 'case-sensitive');
  t.end();
});

t.test('@me and other literal segments next to a parameter', async (t) => {
  const r = await router([['GET', '/users/{user_id}'], ['GET', '/users/@me'], ['GET', '/users/@me/guilds'], ['GET', '/users/{user_id}/guilds'], ['GET', '/x/constructor'], ['GET', '/x/{id}']]);
  t.same(hit(r, '/users/@me').path, '/users/@me');
  t.same(hit(r, '/users/@me/guilds'), { path: '/users/@me/guilds', params: {}, values: [] });
  t.same(hit(r, '/users/42/guilds'), { path: '/users/{user_id}/guilds', params: { user_id: '42' }, values: ['42'] });
  t.same(hit(r, '/users/@you').params, { user_id: '@you' });
  t.same(hit(r, '/x/constructor').path, '/x/constructor', 'Object.prototype names are plain statics');
  t.same(hit(r, '/x/__proto__').params, { id: '__proto__' });
  t.same(hit(r, '/x/toString').params, { id: 'toString' });
  t.end();
});

t.test('suffix and prefix parameters', async (t) => {
  const r = await router([
    ['GET', '/Accounts/{Sid}'],
    ['GET', '/Accounts/{Sid}.json'],
    ['GET', '/Accounts/{AccountSid}/Calls.json'],
    ['GET', '/Accounts/{AccountSid}/Calls/{Sid}.json'],
    ['GET', '/f/{name}.gz'],
    ['GET', '/f/{name}.tar.gz'],
    ['GET', '/api/v{version}/status'],
  ]);
  t.same(hit(r, '/Accounts/AC123.json'), { path: '/Accounts/{Sid}.json', params: { Sid: 'AC123' }, values: ['AC123'] });
  t.same(hit(r, '/Accounts/AC123'), { path: '/Accounts/{Sid}', params: { Sid: 'AC123' }, values: ['AC123'] });
  t.same(hit(r, '/Accounts/.json'), { path: '/Accounts/{Sid}', params: { Sid: '.json' }, values: ['.json'] }, 'a suffix parameter needs a non-empty value');
  t.same(hit(r, '/Accounts/AC1/Calls.json').params, { AccountSid: 'AC1' });
  t.same(hit(r, '/Accounts/AC1/Calls/CA9.json'), { path: '/Accounts/{AccountSid}/Calls/{Sid}.json', params: { AccountSid: 'AC1', Sid: 'CA9' }, values: ['AC1', 'CA9'] });
  t.equal(hit(r, '/Accounts/AC1/Calls/CA9'), undefined, 'the suffix is required');
  t.same(hit(r, '/f/a.tar.gz'), { path: '/f/{name}.tar.gz', params: { name: 'a' }, values: ['a'] }, 'the longer literal is tried first');
  t.same(hit(r, '/f/a.gz').params, { name: 'a' });
  t.same(hit(r, '/f/.tar.gz'), { path: '/f/{name}.gz', params: { name: '.tar' }, values: ['.tar'] });
  t.same(hit(r, '/api/v2/status').params, { version: '2' });
  t.equal(hit(r, '/api/v/status'), undefined);
  t.equal(hit(r, '/api/2/status'), undefined);
  t.end();
});

t.test('multi-parameter segments', async (t) => {
  const r = await router([['GET', '/x/{a}-{b}'], ['GET', '/r/{from}..{to}.csv'], ['GET', '/m/{a}-{b}/{c}']]);
  t.same(hit(r, '/x/1-2'), { path: '/x/{a}-{b}', params: { a: '1', b: '2' }, values: ['1', '2'] });
  t.same(hit(r, '/x/1-2-3').params, { a: '1', b: '2-3' }, 'the first separator splits');
  t.equal(hit(r, '/x/12'), undefined);
  t.equal(hit(r, '/x/-2'), undefined, 'every part is non-empty');
  t.equal(hit(r, '/x/1-'), undefined);
  t.same(hit(r, '/r/2024-01..2024-02.csv').params, { from: '2024-01', to: '2024-02' });
  t.equal(hit(r, '/r/2024-01xx2024-02.csv'), undefined, 'dots are literal');
  t.same(hit(r, '/m/a-b/c'), { path: '/m/{a}-{b}/{c}', params: { a: 'a', b: 'b', c: 'c' }, values: ['a', 'b', 'c'] });
  t.end();
});

t.test('multi-parameter segments take what the lazy regular expression would, in linear time', async (t) => {
  // regression: these segments were matched with `^(.+?)x(.+?)x(.+?)x(.+?)y$`, which backtracks
  // for about a second on 400 characters that do not match (the description writes the template)
  const r = await router([['GET', '/q/{a}x{b}x{c}x{d}y'], ['GET', '/z/{a}{b}{c}{d}{e}{f}z']]);
  const started = performance.now();
  t.equal(hit(r, `/q/${'x'.repeat(20_000)}`), undefined);
  t.equal(hit(r, `/z/${'a'.repeat(20_000)}`), undefined);
  t.ok(performance.now() - started < 200, `no match found at once (${Math.round(performance.now() - started)} ms)`);
  t.same(hit(r, '/q/1x2x3x4y').params, { a: '1', b: '2', c: '3', d: '4' });
  t.same(hit(r, '/z/abcdefgz').params, { a: 'a', b: 'b', c: 'c', d: 'd', e: 'e', f: 'fg' }, 'adjacent parameters: the last takes the rest');

  // the same values as the regular expression, on every short segment over a small alphabet
  const templates = [['-'], ['', ''], ['a', '-', 'b'], ['', '-', '-', ''], ['--', '', 'a'], ['', 'ab', 'a', '']];
  const routers = await Promise.all(templates.map((literals) => router([['GET', `/${literals.map((text, k) => (k === 0 ? text : `{p${k}}${text}`)).join('')}`]])));
  const segments = [''];
  for (let length = 1; length <= 7; length++) for (const prefix of segments.filter((s) => s.length === length - 1)) for (const c of 'a-b') segments.push(prefix + c);
  let compared = 0;
  for (const [i, literals] of templates.entries()) {
    if (literals.length < 3) continue;
    const source = `^${literals.map((text) => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('(.+?)')}$`;
    const expected = new RegExp(source);
    for (const segment of segments.filter(Boolean)) {
      const m = expected.exec(segment);
      const got = routers[i].match(`/${segment}`);
      compared++;
      if (m === null ? got.terminal !== undefined : JSON.stringify(got.values) !== JSON.stringify(m.slice(1))) t.fail(`${source} on ${segment}: ${JSON.stringify(got.values)} vs ${JSON.stringify(m?.slice(1))}`);
    }
  }
  t.ok(compared > 4000, `${compared} segments compared with the regular expression`);
});

t.test('a multi-parameter segment is more specific than a bare parameter', async (t) => {
  // Statics, then single parameters, then multi-parameter patterns: `/x/{id}` swallows `1-2`,
  // so `/x/{a}-{b}` can never be reached (compare `{Sid}.json`, which is tried before `{Sid}`).
  const r = await router([['GET', '/x/{id}'], ['GET', '/x/{a}-{b}']]);
  t.same(hit(r, '/x/1').params, { id: '1' });
  t.same(hit(r, '/x/1-2')?.path, '/x/{a}-{b}', 'pattern reached');
  t.end();
});

t.test('backtracking: a branch that fails deeper gives way to the next', async (t) => {
  const r = await router([
    ['GET', '/a/static/deep'],
    ['GET', '/a/{p}/other'],
    ['GET', '/s/{a}/lit/d'],
    ['GET', '/s/{a}/{b}/c'],
    ['GET', '/c/{a}/x'],
    ['GET', '/c/{a}-{b}/y'],
    ['GET', '/d/{id}.json/meta'],
    ['GET', '/d/{id}/data'],
  ]);
  t.same(hit(r, '/a/static/deep'), { path: '/a/static/deep', params: {}, values: [] });
  t.same(hit(r, '/a/static/other'), { path: '/a/{p}/other', params: { p: 'static' }, values: ['static'] }, 'static branch fails, param branch tried');
  t.same(hit(r, '/s/1/lit/d'), { path: '/s/{a}/lit/d', params: { a: '1' }, values: ['1'] });
  t.same(hit(r, '/s/1/lit/c'), { path: '/s/{a}/{b}/c', params: { a: '1', b: 'lit' }, values: ['1', 'lit'] }, 'backtracking below a parameter keeps its value');
  t.same(hit(r, '/c/1-2/y'), { path: '/c/{a}-{b}/y', params: { a: '1', b: '2' }, values: ['1', '2'] }, 'a failed parameter is popped before the pattern pushes');
  t.same(hit(r, '/c/1-2/x'), { path: '/c/{a}/x', params: { a: '1-2' }, values: ['1-2'] });
  t.same(hit(r, '/d/7.json/data'), { path: '/d/{id}/data', params: { id: '7.json' }, values: ['7.json'] }, 'suffix branch fails, bare parameter tried');
  t.same(hit(r, '/d/7.json/meta').params, { id: '7' });
  t.equal(hit(r, '/a/static'), undefined);
  t.equal(r.match('/c/1-2/z').values.length, 0, 'no stray values after a total miss');
  t.end();
});

t.test('trailing /** catch-all', async (t) => {
  const r = await router([['GET', '/files/**'], ['GET', '/files/special/info'], ['GET', '/files/{id}'], ['POST', '/**']]);
  t.same(hit(r, '/files/a/b/c'), { path: '/files/**', params: { '**': 'a/b/c' }, values: ['a/b/c'] });
  t.same(hit(r, '/files/special/info').path, '/files/special/info', 'more specific routes first');
  t.same(hit(r, '/files/x'), { path: '/files/{id}', params: { id: 'x' }, values: ['x'] });
  t.same(hit(r, '/files/special/other').params, { '**': 'special/other' }, 'static and param branches fail, rest catches');
  t.same(hit(r, '/files/x/y').params, { '**': 'x/y' });
  t.same(hit(r, '/anything/else', 'POST').params, { '**': 'anything/else' }, 'root catch-all');
  t.same(hit(r, '/', 'POST')?.path, '/**', 'the root catch-all also matches /');
  t.same(hit(r, '/files').path, '/files/**', 'the catch-all matches its own base');
  t.same(hit(r, '/files').values, [''], 'with an empty rest value');
  t.end();
});

t.test('the root path', async (t) => {
  const r = await router([['GET', '/'], ['GET', '/a']]);
  t.same(hit(r, '/'), { path: '/', params: {}, values: [] });
  t.same(hit(r, '/a').path, '/a');
  t.equal(hit(r, '/b'), undefined);
  const none = await router([['GET', '/a']]);
  t.equal(none.match('/').terminal, undefined, 'no root operation: no match');
  t.end();
});

t.test('parameter values captured in order; names per candidate', async (t) => {
  const r = await router([['GET', '/o/{org}/r/{repo}/{sha}.diff'], ['DELETE', '/o/{o}/r/{r}/{s}.diff']]);
  t.same(hit(r, '/o/acme/r/mock/abc123.diff'), { path: '/o/{org}/r/{repo}/{sha}.diff', params: { org: 'acme', repo: 'mock', sha: 'abc123' }, values: ['acme', 'mock', 'abc123'] });
  t.same(hit(r, '/o/acme/r/mock/abc123.diff', 'DELETE').params, { o: 'acme', r: 'mock', s: 'abc123' });
  t.end();
});

t.test('method tables and allow strings', async (t) => {
  const r = await router([
    ['POST', '/pets'], ['GET', '/pets'],
    ['PUT', '/only-put'],
    ['GET', '/explicit-head'], ['HEAD', '/explicit-head'],
    ['TRACE', '/trace'],
    { kind: 'route', index: 0, method: '*', path: '/any', rank: 10 },
    { kind: 'route', index: 1, method: '*', path: '/mixed', rank: 10 },
    ['GET', '/mixed'],
  ]);
  const terminal = (url) => r.match(url).terminal;
  t.same(Object.keys(terminal('/pets').methods), ['GET', 'POST'], 'methods sorted');
  t.equal(terminal('/pets').allow, 'GET, HEAD, POST', 'GET implies HEAD');
  t.equal(terminal('/pets').any, null);
  t.equal(terminal('/only-put').allow, 'PUT');
  t.equal(terminal('/explicit-head').allow, 'GET, HEAD', 'HEAD listed once');
  t.equal(terminal('/trace').allow, 'TRACE');
  t.same(terminal('/any').methods, {});
  t.same(terminal('/any').any, [{ kind: 'route', index: 0, names: [] }]);
  t.equal(terminal('/any').allow, 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT');
  const mixed = terminal('/mixed');
  t.same(mixed.methods.GET, [{ kind: 'route', index: 1, names: [] }, { kind: 'op', index: 8, names: [] }], 'a concrete method also lists the any-method candidates, by rank');
  t.same(mixed.any, [{ kind: 'route', index: 1, names: [] }]);
  t.same(Object.keys(terminal('/pets').methods.GET[0]), ['kind', 'index', 'names'], 'rank is not emitted');
  t.end();
});

t.test('candidates are ordered by rank, then index', async (t) => {
  const route = (index, rank, method = 'GET') => ({ kind: 'route', index, method, path: '/p/{id}', rank });
  const r = await router([
    { kind: 'op', index: 0, method: 'GET', path: '/p/{id}', rank: 100 },
    route(3, 10), route(1, 9), route(0, 6), route(2, 8), route(5, 4), route(4, 10, '*'), route(6, 6),
  ]);
  const list = r.match('/p/1').terminal.methods.GET.map((c) => `${c.kind}${c.index}`);
  t.same(list, ['route5', 'route0', 'route6', 'route2', 'route1', 'route3', 'route4', 'op0']);
  t.end();
});

t.test('emitRoutes ranks custom routes: query, then header, then body conditions, then plain, then operations', async (t) => {
  const doc = {
    openapi: '3.0.3',
    info: { title: 'x', version: '1' },
    paths: { '/pets/{petId}': { get: { parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'ok' } } } } },
  };
  const routes = [
    { path: '/pets/{id}', method: 'get' },
    { path: '/pets/{id}', method: 'get', match: { body: { a: 1 } } },
    { path: '/pets/{id}', method: 'get', match: { headers: { 'x-a': '1' } } },
    { path: '/pets/{id}', method: 'get', match: { query: { a: '1' } } },
    { path: '/pets/{id}', match: { query: { a: '1' }, headers: { 'x-a': '1' } } },
    { path: '/pets/{id}', method: 'get', match: { headers: { 'x-a': '1' }, body: {} } },
  ];
  t.equal(lowerCustomRoutes(routes).length, 6);
  const ir = buildIr('x', [{ source: 'x.yaml', description: { dialect: 'openapi-3.0', document: doc } }], routes);
  const source = emitRoutes(ir, registerSchemas(ir));
  const mod = await load(source);
  const { terminal, values } = run(mod.match, '/pets/5');
  t.same(terminal.methods.GET.map((c) => `${c.kind}${c.index}`), ['route4', 'route3', 'route5', 'route2', 'route1', 'route0', 'op0']);
  t.same(terminal.methods.GET.at(-1).names, ['petId'], 'operation names its own parameter');
  t.same(terminal.methods.GET[0].names, ['id']);
  t.same(values, ['5']);
  t.same(mod.customRoutes.map((r) => r.match), ir.routes.map((r) => JSON.parse(JSON.stringify(r.match))), 'route conditions are exported');
  t.same(mod.operations[0].params[0], { name: 'petId', declaredName: 'petId', in: 'path', required: true, kind: 'integer', items: 'string', style: 'simple', explode: false });
  t.end();
});

t.test('emitted router is deterministic and readable', async (t) => {
  const list = [['GET', '/b/{id}'], ['GET', '/a'], ['GET', '/b/x'], ['GET', '/c/{a}-{b}'], ['GET', '/d/**']];
  const a = await router(list);
  const b = await router(structuredClone(list));
  t.equal(a.source, b.source);
  t.match(a.source, /export function match\(s: string\[\], p: string\[\]\): Terminal \| undefined/);
  t.match(a.source, /\/\*\* \/b\/\{id\} \*\//, 'functions are labelled with their template');
  t.match(a.source, /case "a":.*\n\s+case "b":.*\n\s+case "c":.*\n\s+case "d":/, 'statics sorted');
  t.notMatch(a.source.replace(/\nfunction splitSegment\(.*?\n\}\n/s, '\n'), /\bfor\s*\(/, 'no loops on the hot path (but over the literals of a multi-parameter segment)');
  t.end();
});
