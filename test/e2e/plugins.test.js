// Sandboxed WebAssembly plugins through `mock plugin install` and `mock serve`: each kind end to end
// through real requests (docs/plugins.md); a plugin that loops is cut off at max_execution_ms and the
// next request is served; one that eats memory is stopped at its declared maximum; files only in
// allowed_paths; no network; garbage answers and repeated failures disable the plugin.
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, runMock, startMock, tmpdir } from '../helpers/cli.js';
import { chatty, constant, fileReader, misbehaving, networked, testPlugin } from '../helpers/plugins.js';

const examples = path.join(root, 'plugins/examples');
const json = { 'application/json': { schema: { type: 'object' } } };
const answer = (example) => ({ 200: { description: 'ok', content: { 'application/json': { example } } } });
const description = {
  openapi: '3.0.3',
  info: { title: 'plugins', version: '1' },
  paths: {
    '/greet': { get: { responses: answer({ shout: "{{plugin:upper:upper('hello, world')}}", id: '{{plugin:catalog:next_id()}}', product: '{{plugin:catalog:product()}}' }) } },
    '/products/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: {
            description: 'generated',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['serial', 'name'],
                  properties: { serial: { type: 'integer', minimum: 1, 'x-mock-data-source': { plugin: 'catalog', action: 'next_id' } }, name: { type: 'string', maxLength: 8 } },
                },
              },
            },
          },
        },
      },
    },
    '/pets': { post: { requestBody: { content: json }, responses: answer({ created: true }) } },
    '/liar': { get: { responses: answer({ reached: true }) } },
    '/open': { get: { responses: answer({ open: true }) } },
    '/spin': { get: { responses: answer({ v: '{{plugin:rogue:spin()}}' }) } },
    '/hog': { get: { responses: answer({ v: '{{plugin:rogue:hog()}}' }) } },
    '/ok': { get: { responses: answer({ v: '{{plugin:rogue:ok()}}' }) } },
    '/garbage': { get: { responses: answer({ v: '{{plugin:sloppy:garbage()}}' }) } },
    '/say': { get: { responses: answer({ v: '{{plugin:chatty:say()}}' }) } },
    '/read': { get: { responses: answer({ granted: '{{plugin:reader:read()}}', escape: '{{plugin:reader:escape()}}', refused: '{{plugin:snoop:read()}}' }) } },
  },
};

const project = tmpdir();
mkdirSync(path.join(project, 'data'));
writeFileSync(path.join(project, 'data/secret.json'), '{"secret":42}');
writeFileSync(path.join(project, 'api.json'), JSON.stringify(description));
writeFileSync(
  path.join(project, 'mock.yaml'),
  [
    'specs: [{path: api.json}]',
    'response_template_expand: true',
    'plugins:',
    '  disable_after: 2',
    '  sandbox:',
    '    rogue: {max_execution_ms: 300}',
    '    reader: {allowed_paths: [data]}',
    '  middleware: [{plugin: auth, action: validate_token, paths: ["/pets"]}, {plugin: liar, action: check, paths: ["/liar"]}]',
    '  request_validators: [{plugin: guard, action: check}]',
    '  response_modifiers: [{plugin: stamp, action: stamp, paths: ["/open"]}]',
    '',
  ].join('\n'),
);
const modules = path.join(project, 'modules');
mkdirSync(modules);
for (const [file, bytes] of [
  ['rogue.wasm', misbehaving('rogue')],
  // the same actions under another name: its own health, so its disabling leaves rogue alone
  ['sloppy.wasm', misbehaving('sloppy')],
  ['reader.wasm', fileReader('reader')],
  ['snoop.wasm', fileReader('snoop')],
  ['fetcher.wasm', networked()],
  ['chatty.wasm', chatty()],
  // a middleware action that answers JSON, but not {allow}
  ['liar.wasm', testPlugin('liar', { check: 'middleware' }, `${constant(128, '"yes"')} (func (export "check") (param i32 i32) (result i32) (i32.const 128))`)],
]) {
  writeFileSync(path.join(modules, file), bytes);
}
const installs = [
  ...['template-function/upper', 'data-source/catalog', 'middleware/auth', 'request-validator/guard', 'response-modifier/stamp'].map((p) => path.join(examples, `${p}.wasm`)),
  ...['rogue', 'sloppy', 'reader', 'snoop', 'chatty', 'liar'].map((name) => path.join(modules, `${name}.wasm`)),
];

t.before(async () => {
  for (const file of installs) {
    const res = await runMock(['plugin', 'install', file], { cwd: project });
    if (res.code !== 0) throw new Error(`install ${file}: ${res.stdout}${res.stderr}`);
  }
});

let server;
const base = () => server.url;
t.before(async () => {
  // the admin embedded: the validation test changes the mode at run time
  server = await startMock(['--admin-embed'], { cwd: project });
});
t.teardown(() => server?.stop());

t.test('a template function and a data source answer inside the response template', async (t) => {
  const res = await fetch(`${base()}/greet`);
  t.equal(res.status, 200);
  const body = await res.json();
  t.equal(body.shout, 'HELLO, WORLD');
  t.same(JSON.parse(body.product), { sku: 'W-1', name: 'Widget', price: 9.5 });
  const again = await (await fetch(`${base()}/greet`)).json();
  t.equal(Number(again.id), Number(body.id) + 1, 'the data source counts from one call to the next');
});

t.test('a data source gives a generated field its values (x-mock-data-source), the rest generated as before', async (t) => {
  const first = await (await fetch(`${base()}/products/a`)).json();
  const second = await (await fetch(`${base()}/products/b`)).json();
  t.equal(typeof first.name, 'string');
  t.ok(Number.isInteger(first.serial));
  t.equal(second.serial, first.serial + 1, 'each answer asks the data source again');
});

t.test("middleware refuses a request without the token with the spec's 401 body, and lets one with it through", async (t) => {
  const refused = await fetch(`${base()}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex"}' });
  t.equal(refused.status, 401);
  t.same(await refused.json(), { error: 'Unauthorized', message: 'a valid bearer token is required', code: 'MOCK_ERR_PLUGIN_UNAUTHORIZED' });
  const allowed = await fetch(`${base()}/pets`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer letmein' }, body: '{"name":"Rex"}' });
  t.equal(allowed.status, 200);
  t.same(await allowed.json(), { created: true });
  t.equal((await fetch(`${base()}/open`)).status, 200, 'a route outside its paths runs no middleware');
});

t.test("an answer that is JSON but not its kind's shape fails the request with a 502", async (t) => {
  const res = await fetch(`${base()}/liar`);
  t.equal(res.status, 502);
  const body = await res.json();
  t.equal(body.code, 'MOCK_ERR_PLUGIN_FAILED');
  t.match(body.detail, 'plugin liar: check failed: it answered neither {"allow": true} nor {"allow": false');
});

t.test('a request validator refuses what it finds wrong with a 400 listing its errors', async (t) => {
  const res = await fetch(`${base()}/pets`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer letmein' }, body: '{"name":"forbidden"}' });
  t.equal(res.status, 400);
  const body = await res.json();
  t.equal(body.code, 'MOCK_ERR_PLUGIN_REQUEST_INVALID');
  t.same(body.errors, ['the request mentions the word forbidden']);
});

t.test("request validators follow the description's validation mode and status", async (t) => {
  const setValidation = async (body) => {
    const res = await fetch(`${base()}/__mock/validation`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    t.equal(res.status, 200, JSON.stringify(body));
  };
  const forbidden = () => fetch(`${base()}/pets`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer letmein' }, body: '{"name":"forbidden"}' });
  await setValidation({ status_code: 422 });
  t.equal((await forbidden()).status, 422);
  await setValidation({ mode: 'warn' });
  t.equal((await forbidden()).status, 200, 'warn: logged, accepted');
  await setValidation({ mode: 'off' });
  t.equal((await forbidden()).status, 200, 'off: not asked');
  await setValidation({ mode: 'enforce', status_code: 400 });
  t.equal((await forbidden()).status, 400);
});

t.test('a response modifier changes the answers of its paths before delivery', async (t) => {
  const open = await fetch(`${base()}/open`);
  t.equal(open.headers.get('x-stamped-by'), 'stamp-plugin');
  t.same(await open.json(), { open: true });
  t.equal((await fetch(`${base()}/greet`)).headers.get('x-stamped-by'), null, 'other paths are left alone');
});

t.test('a plugin that loops is cut off at max_execution_ms, and the next request is served by it again', async (t) => {
  const res = await fetch(`${base()}/spin`);
  t.equal(res.status, 502);
  const body = await res.json();
  t.equal(body.code, 'MOCK_ERR_PLUGIN_TIMEOUT');
  t.match(body.detail, /rogue: spin gave no answer within 300 ms/);
  const next = await fetch(`${base()}/ok`);
  t.equal(next.status, 200);
  t.same(await next.json(), { v: 'fine' });
});

t.test('a plugin that allocates past its declared maximum is stopped; its request alone fails', async (t) => {
  const res = await fetch(`${base()}/hog`);
  t.equal(res.status, 502);
  const body = await res.json();
  t.equal(body.code, 'MOCK_ERR_PLUGIN_FAILED');
  t.match(body.detail, /rogue: hog failed: it trapped/);
  t.equal((await fetch(`${base()}/ok`)).status, 200);
});

t.test('files: a granted directory is readable, nothing outside it, nothing at all without a grant', async (t) => {
  const body = await (await fetch(`${base()}/read`)).json();
  t.same(JSON.parse(body.granted), { secret: 42 });
  t.not(JSON.parse(body.escape).errno, undefined, 'a path out of the granted directory is refused by WASI');
  t.not(JSON.parse(body.refused).errno, undefined, 'a plugin without allowed_paths has no directory to open');
});

t.test("a plugin's standard output and error lead nowhere, not to the server's", async (t) => {
  t.same(await (await fetch(`${base()}/say`)).json(), { v: 'done' });
  await fetch(`${base()}/open`);
  t.notMatch(server.stdout + server.stderr, 'PLUGIN-WAS-HERE');
});

t.test('a plugin that answers garbage fails its request; repeated failures disable it with one log line', async (t) => {
  for (let i = 0; i < 2; i++) {
    const res = await fetch(`${base()}/garbage`);
    t.equal(res.status, 502);
    t.equal((await res.json()).code, 'MOCK_ERR_PLUGIN_FAILED');
  }
  const disabled = await fetch(`${base()}/garbage`);
  t.equal(disabled.status, 502);
  t.equal((await disabled.json()).code, 'MOCK_ERR_PLUGIN_DISABLED');
  const log = server.stdout + server.stderr;
  t.equal(log.split('plugin sloppy disabled after 2 failures').length - 1, 1, 'one log line');
  t.equal((await fetch(`${base()}/ok`)).status, 200, 'the same module under another name still serves');
  t.equal((await fetch(`${base()}/open`)).status, 200, 'the server keeps serving');
});

t.test('a plugin that wants a network function from the host is refused at install', async (t) => {
  const res = await runMock(['plugin', 'install', path.join(modules, 'fetcher.wasm')], { cwd: project });
  t.equal(res.code, 1);
  t.match(res.stderr, /import env\.http_get is refused: the host provides only wasi_snapshot_preview1 \(no network/);
});

t.test('a start that cannot load what mock.yaml asks for stops with one line', async (t) => {
  const cwd = tmpdir();
  writeFileSync(path.join(cwd, 'api.json'), JSON.stringify({ openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: answer({}) } } } }));
  writeFileSync(path.join(cwd, 'mock.yaml'), 'specs: [{path: api.json}]\nplugins:\n  middleware: [{plugin: nope, action: validate_token}]\n  sandbox:\n    reader: {allowed_paths: [missing]}\n');
  const serve = await runMock(['serve', '--http-port', '0', '--host', '127.0.0.1'], { cwd });
  t.equal(serve.code, 1);
  t.match(serve.stderr, `plugin nope is not installed in ${path.join(cwd, '.mock/plugins')} (run mock plugin install, or check plugins.dir)`);
  const install = await runMock(['plugin', 'install', path.join(modules, 'reader.wasm')], { cwd });
  t.equal(install.code, 1);
  t.equal((await runMock(['plugin', 'install', path.join(examples, 'template-function/upper.wasm')], { cwd })).code, 0);
  writeFileSync(path.join(cwd, 'mock.yaml'), 'specs: [{path: api.json}]\nplugins:\n  response_modifiers: [{plugin: upper, action: upper}]\n');
  const wrongKind = await runMock(['serve', '--http-port', '0', '--host', '127.0.0.1'], { cwd });
  t.equal(wrongKind.code, 1);
  t.match(wrongKind.stderr, "plugins.response_modifiers: upper's action upper is a template_function, not a response_modifier");
  t.match(install.stderr, `allowed_paths ${path.join(cwd, 'missing')} is not a directory (create it, or remove it from plugins.sandbox in mock.yaml)`);
});
