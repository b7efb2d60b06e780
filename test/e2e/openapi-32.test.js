// OpenAPI 3.2 features that change what the server does (docs/streaming.md, "OpenAPI 3.2"): the
// QUERY method, additionalOperations, in: querystring parameters, JSON Lines request bodies checked
// item by item; on both HTTP backends, with curl and Node's http client.
import t from 'tap';
import http from 'node:http';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { buildOnce, needsCurl, root, runMock, startMock, tmpdir } from '../helpers/cli.js';

const spec = path.join(root, 'examples', 'streaming', 'events-3.2.yaml');
const out = await buildOnce(spec);

/** One request with node:http's client, which sends any method token as written. */
function request(url, method, { body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: body === undefined ? headers : { 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

t.test('mock build lowers the 3.2 description without a warning about what it serves', async (t) => {
  const dir = tmpdir();
  const res = await runMock(['build', '--spec', spec, '--out', dir]);
  t.equal(res.code, 0, res.stderr);
  t.notMatch(res.stdout + res.stderr, /unsupported|left out/i);
});

t.test('additionalOperations that are not method names, or repeat a fixed field, are left out with a build warning', async (t) => {
  const dir = tmpdir();
  const file = path.join(dir, 'bad.yaml');
  writeFileSync(
    file,
    `openapi: 3.2.0\ninfo: { title: t, version: '1' }\npaths:\n  /x:\n    additionalOperations:\n      GET: { responses: { '200': { description: ok } } }\n      'BAD NAME': { responses: { '200': { description: ok } } }\n      LINK: { responses: { '204': { description: ok } } }\n`,
  );
  const res = await runMock(['build', '--spec', file, '--out', dir]);
  t.equal(res.code, 0, res.stderr);
  const text = res.stdout + res.stderr;
  t.match(text, /additionalOperations "GET" is left out: use the "get" field instead/);
  t.match(text, /additionalOperations "BAD NAME" is left out: it is not an HTTP method name/);
  const server = await startMock(['--spec', file, '--out', dir]);
  t.teardown(() => server.stop());
  t.equal((await request(`${server.url}/x`, 'LINK')).status, 204, 'LINK is served');
});

for (const backend of ['uws', 'node']) {
  t.test(`${backend}`, async (t) => {
    const server = await startMock(['--spec', spec, '--out', out, '--http-backend', backend]);
    t.teardown(() => server.stop());

    await t.test('QUERY /search is the query operation: its JSON body is checked, its answer generated', async (t) => {
      const ok = await request(`${server.url}/search`, 'QUERY', { body: '{"term":"x"}', headers: { 'content-type': 'application/json' } });
      t.equal(ok.status, 200, ok.text);
      const list = JSON.parse(ok.text);
      t.ok(Array.isArray(list) && list.length <= 3 && list.every((s) => typeof s === 'string'), 'an array of at most three strings');
      const bad = await request(`${server.url}/search`, 'QUERY', { body: '{}', headers: { 'content-type': 'application/json' } });
      t.equal(bad.status, 400, 'a body without term is refused');
      t.match(bad.text, /term/);
      const get = await request(`${server.url}/search`, 'GET');
      t.equal(get.status, 405, 'GET is not documented there');
      t.equal(get.headers.allow, 'QUERY', 'Allow names QUERY');
    });

    await t.test('curl -X QUERY', { skip: needsCurl }, async (t) => {
      const text = await new Promise((resolve, reject) =>
        execFile('curl', ['-sS', '-X', 'QUERY', '-H', 'content-type: application/json', '--data', '{"term":"y"}', '-w', '\n%{http_code}', `${server.url}/search`], (e, stdout) =>
          e ? reject(e) : resolve(stdout),
        ),
      );
      t.equal(text.split('\n').pop(), '200');
    });

    await t.test('additionalOperations: PURGE /items is served, and named in Allow', async (t) => {
      t.equal((await request(`${server.url}/items`, 'PURGE')).status, 204);
      const del = await request(`${server.url}/items`, 'DELETE');
      t.equal(del.status, 405);
      t.equal(del.headers.allow, 'GET, HEAD, PURGE');
    });

    await t.test('in: querystring: the form-urlencoded object is checked field by field, coerced to its types', async (t) => {
      t.equal((await request(`${server.url}/items?color=red&size=2`, 'GET')).status, 200);
      t.equal((await request(`${server.url}/items`, 'GET')).status, 200, 'no field is required');
      const color = await request(`${server.url}/items?color=blue`, 'GET');
      t.equal(color.status, 400);
      t.match(color.text, /color/);
      const size = await request(`${server.url}/items?size=big`, 'GET');
      t.equal(size.status, 400);
      t.match(size.text, /size/);
    });

    await t.test('a JSON Lines request body is checked item by item', async (t) => {
      const jsonl = { 'content-type': 'application/jsonl' };
      const ok = await request(`${server.url}/logs`, 'POST', { body: '{"level":"info","message":"a"}\n\n{"level":"warn","message":"b"}\n', headers: jsonl });
      t.equal(ok.status, 202, ok.text);
      const bad = await request(`${server.url}/logs`, 'POST', { body: '{"level":"info","message":"a"}\n{"level":"loud","message":"b"}\n', headers: jsonl });
      t.equal(bad.status, 400);
      const problem = JSON.parse(bad.text);
      t.equal(problem.errors[0].name, '/1/level', 'the issue names the second item');
      t.match(problem.detail, /^item 2: /);
      const broken = await request(`${server.url}/logs`, 'POST', { body: '{"level":"info","message":"a"}\n{oops\n', headers: jsonl });
      t.equal(broken.status, 400);
      t.match(JSON.parse(broken.text).detail, /item 2 \(line 2\)/);
    });
  });
}

t.test('$self: absolute references to it, or to files under its folder, resolve to the local copies; a relative server URL resolves against it', async (t) => {
  const file = path.join(root, 'test', 'fixtures', 'openapi', 'self-3.2', 'api.yaml');
  const server = await startMock(['--spec', file, '--out', tmpdir()]);
  t.teardown(() => server.stop());
  t.match(server.stdout, /serving on http:\/\/\S+\/specs\/current /, 'servers: ../current against $self https://api.example.com/specs/v2/api.yaml mounts /specs/current');
  const origin = server.url;
  t.equal((await request(`${origin}/specs/current/levels`, 'GET')).text, '"low"', 'common.yaml beside the description');
  t.equal((await request(`${origin}/specs/current/line`, 'GET')).text, '{"text":"hello"}', 'the description itself');
});
