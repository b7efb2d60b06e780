// The contract-diff admin API of mock serve: captures uploaded (one or a list), paged newest
// first, read by id, analysed one by one and the newest together against the served description
// (the corpus petstore), statistics, and its unhappy paths: a malformed capture, an unknown id, a
// spec_path that is not the served description (refused without being read).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { parse, stringify } from 'yaml';
import { envelope, failure, post } from '../helpers/admin.js';
import { corpus, startMock, tmpdir } from '../helpers/cli.js';

const dir = tmpdir();
const doc = parse(readFileSync(path.join(corpus, 'openapi', 'oai-v3.0-petstore-expanded.yaml'), 'utf8'));
writeFileSync(path.join(dir, 'api.yaml'), stringify(doc));
writeFileSync(path.join(dir, 'other.yaml'), stringify(doc));
const server = await startMock(['--spec', 'api.yaml', '--out', path.join(dir, 'out'), '--admin', '--admin-port', '0'], { cwd: dir });
t.teardown(() => server.stop());
const api = `${server.adminUrl}/__mock`;

const good = {
  method: 'POST',
  path: '/v2/pets',
  headers: { 'content-type': 'application/json' },
  body: { name: 'rex' },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: { id: 1, name: 'rex' } },
};
const drifting = { method: 'POST', path: '/v2/pets', body: { name: 7 } };

t.test('upload, read by id, analyse one', async (t) => {
  const stored = await envelope(t, await post(`${api}/contract-diff/upload`, drifting), 201);
  t.match(stored, { id: /^[0-9a-z]{19}$/, received_at: /Z$/, source: 'upload', capture: { method: 'POST', path: '/v2/pets', body: { name: 7 }, headers: {}, query_params: {} } });
  t.same(await envelope(t, await fetch(`${api}/api/contract-diff/captures/${stored.id}`)), stored, 'the spec path /__mock/api/contract-diff/captures/{id}');
  const analysis = await envelope(t, await post(`${api}/contract-diff/captures/${stored.id}/analyze`, {}));
  t.match(analysis, {
    capture_id: stored.id,
    operation: 'POST /v2/pets',
    mismatches: [{ type: 'type_mismatch', location: 'request.body', field: '/name', severity: 'high', keyword: 'type' }],
    recommendations: [{ type: 'type_mismatch', confidence: 0.2, likely: false, suggested_fix: /widen the type/ }],
  });
  t.same(await envelope(t, await post(`${api}/api/contract-diff/analyze/${stored.id}`, { spec_path: 'api.yaml' })), analysis, 'the served description named by spec_path');
  const clean = await envelope(t, await post(`${api}/contract-diff/upload`, good), 201);
  t.match(await envelope(t, await post(`${api}/contract-diff/analyze/${clean.id}`, {})), { operation: 'POST /v2/pets', mismatches: [], recommendations: [] });
});

t.test('a list upload, paging newest first, analysing the newest; confidence rises with observations', async (t) => {
  const { ids, count } = await envelope(t, await post(`${api}/contract-diff/upload`, [...Array(4).fill(drifting), good, { method: 'DELETE', path: '/v2/pets' }]), 201);
  t.equal(count, 6);
  const first = await envelope(t, await fetch(`${api}/contract-diff/captures?limit=2`));
  t.match(first, { total: 8, limit: 2, offset: 0 });
  t.same(
    first.captures.map((c) => c.id),
    [ids[5], ids[4]],
    'newest first',
  );
  const next = await envelope(t, await fetch(`${api}/api/contract-diff/captures?limit=2&offset=2`));
  t.same(
    next.captures.map((c) => c.id),
    [ids[3], ids[2]],
  );
  const few = await envelope(t, await post(`${api}/api/contract-diff/analyze?limit=3`, {}));
  t.match(few, { captures: 3, matched: 2, by_type: { invalid_method: 1, type_mismatch: 1 } });
  const all = await envelope(t, await post(`${api}/contract-diff/analyze?limit=100`, {}));
  t.match(all, { captures: 8, matched: 7, clean: 2, min_sample: 5 });
  t.match(
    all.recommendations.find((r) => r.type === 'type_mismatch'),
    { operation: 'POST /v2/pets', confidence: 0.71, likely: true, message: /^likely drift: 5 of 7 captures/ },
  );
  const stats = await envelope(t, await fetch(`${api}/contract-diff/statistics`));
  t.match(stats, { captures: 8, evicted: 0, max_bytes: 32 * 1024 * 1024, uploads: 8, analyses: 5, captures_analyzed: 14, last_analyzed_at: /Z$/ });
  t.ok(stats.bytes > 0);
  t.equal(stats.by_severity.high, stats.mismatches);
});

t.test('unhappy paths', async (t) => {
  await failure(t, await post(`${api}/contract-diff/upload`, { method: 'GET' }), 400, /^the capture: path must be a string starting with '\/'$/);
  await failure(t, await post(`${api}/contract-diff/upload`, [good, { path: '/x' }]), 400, /^capture 2: method must be an HTTP method/);
  await failure(t, await post(`${api}/contract-diff/upload`, []), 400, /a list of captures must hold 1 to 1000, got 0/);
  await failure(t, await post(`${api}/contract-diff/upload`, '{oops'), 400);
  await failure(t, await fetch(`${api}/contract-diff/captures/zzzzzzzzzzzzzzzzzzz`), 404, /no capture zzzzzzzzzzzzzzzzzzz \(GET \/__mock\/contract-diff\/captures lists them/);
  await failure(t, await post(`${api}/contract-diff/captures/zzzzzzzzzzzzzzzzzzz/analyze`, {}), 404);
  await failure(t, await fetch(`${api}/contract-diff/captures/..%2Fetc`), 400, /capture id: expected the id an upload answered with/);
  await failure(t, await fetch(`${api}/contract-diff/captures?limit=0`), 400, /limit: expected a whole number from 1 to 1000/);
  await failure(t, await post(`${api}/contract-diff/analyze?limit=10001`, {}), 400, /limit: expected a whole number from 1 to 10000/);
  const { id } = await envelope(t, await post(`${api}/contract-diff/upload`, good), 201);
  await failure(
    t,
    await post(`${api}/contract-diff/captures/${id}/analyze`, { spec_path: 'other.yaml' }),
    400,
    /spec_path: only the served description \(api\.yaml\) is analysed against here; .*mock contract-diff analyze --spec other\.yaml/,
  );
  await failure(t, await post(`${api}/contract-diff/captures/${id}/analyze`, { spec_path: '../../etc/passwd' }), 400, /Path traversal detected/);
  await failure(t, await post(`${api}/contract-diff/captures/${id}/analyze`, { spec_path: '/etc/passwd' }), 400, /outside the project directory/);
  await failure(t, await post(`${api}/contract-diff/captures/${id}/analyze`, [1]), 400, /the body must be \{\}/);
});
