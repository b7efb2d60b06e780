// contract_diff.capture: traffic mock serve proxies to a real upstream (a local server here) is
// held against the served description (the corpus petstore, one answer schema made strict) as it
// passes: kept in the captures the admin API lists (credentials redacted), and each answer that
// breaks the description carries X-Mock-Violations, ASCII only and at most 4 KiB.
import http from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { parse, stringify } from 'yaml';
import { envelope } from '../helpers/admin.js';
import { corpus, startMock, tmpdir } from '../helpers/cli.js';

const answers = {
  '/v2/pets/1': { id: 1, name: 'rex' },
  '/v2/pets/2': { id: 2, name: 'rex', ñick: 'Zoë' },
  '/v2/pets': Array.from({ length: 400 }, () => ({ id: 'x' })),
};
const upstream = http.createServer((req, res) => {
  const body = answers[new URL(req.url, 'http://x').pathname];
  if (body === undefined) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
t.teardown(() => upstream.close());

const dir = tmpdir();
const doc = parse(readFileSync(path.join(corpus, 'openapi', 'oai-v3.0-petstore-expanded.yaml'), 'utf8'));
doc.paths['/pets/{id}'].get.responses['200'].content['application/json'].schema = {
  type: 'object',
  required: ['id', 'name'],
  additionalProperties: false,
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
};
writeFileSync(path.join(dir, 'api.yaml'), stringify(doc));
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `specs: [api.yaml]
proxy:
  enabled: true
  upstream_url: http://127.0.0.1:${upstream.address().port}
contract_diff:
  capture: { enabled: true }
`,
);
const server = await startMock(['-c', 'mock.yaml', '--out', path.join(dir, 'out'), '--admin', '--admin-port', '0'], { cwd: dir });
t.teardown(() => server.stop());
const post = (url) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

t.test('an answer that holds to the description passes unmarked; one that breaks it says how', async (t) => {
  const clean = await fetch(`${server.url}/v2/pets/1`, { headers: { authorization: 'Bearer very-secret-token' } });
  t.equal(clean.status, 200);
  t.same(await clean.json(), { id: 1, name: 'rex' }, 'the upstream answered');
  t.equal(clean.headers.get('x-mock-violations'), null);

  const extra = await fetch(`${server.url}/v2/pets/2`);
  t.same(await extra.json(), answers['/v2/pets/2'], 'the answer is the upstream one, untouched');
  const header = extra.headers.get('x-mock-violations');
  t.match(header, /^[\x20-\x7e]+$/, 'ASCII only');
  t.same(JSON.parse(header), [{ type: 'unknown_field', location: 'response.body', field: '/ñick', severity: 'low', message: "body must not have property 'ñick'" }]);
  t.match(header, /\\u00f1ick/, 'non-ASCII escaped');

  const many = await fetch(`${server.url}/v2/pets`);
  t.equal((await many.json()).length, 400);
  const bounded = many.headers.get('x-mock-violations');
  t.ok(bounded.length <= 4096, `${bounded.length} bytes`);
  const listed = JSON.parse(bounded);
  t.match(listed[0], { type: 'missing_field', location: 'response.body', field: '/0/name' });
  t.match(listed.at(-1), { truncated: Number });
  t.equal(listed.length - 1 + listed.at(-1).truncated, 800, 'every mismatch is listed or counted');
});

t.test('proxied exchanges are kept with the captures, credentials redacted, and analysed', async (t) => {
  const api = `${server.adminUrl}/__mock`;
  const { captures, total } = await envelope(t, await fetch(`${api}/contract-diff/captures`));
  t.equal(total, 3);
  t.same(
    captures.map((c) => [c.source, c.capture.path, c.capture.response.status]),
    [
      ['proxy', '/v2/pets', 200],
      ['proxy', '/v2/pets/2', 200],
      ['proxy', '/v2/pets/1', 200],
    ],
  );
  t.equal(captures[2].capture.headers.authorization, '[redacted]', 'the credential is not kept');
  t.same(captures[1].capture.response.body, JSON.stringify(answers['/v2/pets/2']));
  const report = await envelope(t, await post(`${api}/contract-diff/analyze?limit=3`));
  t.match(report, { captures: 3, matched: 3, clean: 1, by_type: { unknown_field: 1, missing_field: 400, type_mismatch: 400 } });
  t.match(report.groups, [
    { type: 'type_mismatch', operation: 'GET /v2/pets', field: '/*/id', count: 1 },
    { type: 'missing_field', operation: 'GET /v2/pets', field: '/*/name', count: 1 },
    { type: 'unknown_field', operation: 'GET /v2/pets/{id}', field: '/ñick' },
  ]);
});

t.test('the continuum: its upstream answers are checked and kept too; violations_header false leaves the answers unmarked', async (t) => {
  const other = tmpdir();
  writeFileSync(path.join(other, 'api.yaml'), stringify(doc));
  writeFileSync(
    path.join(other, 'mock.yaml'),
    `specs: [api.yaml]
proxy: { enabled: false, upstream_url: 'http://127.0.0.1:${upstream.address().port}' }
reality_continuum: { enabled: true, default_ratio: 1 }
contract_diff:
  capture: { enabled: true, violations_header: false }
`,
  );
  const blended = await startMock(['-c', 'mock.yaml', '--out', path.join(other, 'out'), '--admin', '--admin-port', '0'], { cwd: other });
  t.teardown(() => blended.stop());
  const res = await fetch(`${blended.url}/v2/pets/2`);
  t.equal(res.headers.get('x-mock-source'), 'upstream');
  t.same(await res.json(), answers['/v2/pets/2']);
  t.equal(res.headers.get('x-mock-violations'), null, 'violations_header: false');
  const { captures } = await envelope(t, await fetch(`${blended.adminUrl}/__mock/contract-diff/captures`));
  t.match(captures, [{ source: 'proxy', capture: { method: 'GET', path: '/v2/pets/2', response: { status: 200 } } }]);
  const analysis = await envelope(t, await post(`${blended.adminUrl}/__mock/contract-diff/captures/${captures[0].id}/analyze`));
  t.match(analysis.mismatches, [{ type: 'unknown_field', field: '/ñick' }]);
});
