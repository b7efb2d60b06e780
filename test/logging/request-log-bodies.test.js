// What a request-log entry holds beyond the spec's fields (issue 37, items 8 and 9), through `mock
// serve` and GET /__mock/logs: the bodies the client sent and the mock answered (bounded per body
// and in total, credentials redacted, binary as base64), and every refusal's catalogue code and
// detail, also on the console line.
import t from 'tap';
import { serveWith, until } from './helpers.js';

t.jobs = 2;
const ADMIN = 'admin: { enabled: true, port: 0 }\n';

const logs = async (server, query = '') => {
  const answer = await (await fetch(`${server.adminUrl}/__mock/logs${query}`)).json();
  return answer.data;
};
/** The newest entry for `path`, once it is in the log. */
const entryFor = (server, path) => until(async () => (await logs(server, `?path=${encodeURIComponent(path)}&limit=1`))[0], 5000, `the entry of ${path}`);

t.test('bodies are kept, redacted, bounded and told apart from binary', async (t) => {
  const server = await serveWith(`${ADMIN}logging:\n  bodies: { max_body_bytes: 300000, max_store_mb: 1 }\n`);
  t.teardown(() => server.stop());

  const sent = { name: 'Kitty', kind: 'cat', password: 'hunter2', apiKey: 'k-123', nested: { client_secret: 's3', note: 'keep me' } };
  const created = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sent) });
  const answered = await created.text();
  t.equal(created.status, 201);
  const entry = await entryFor(server, '/v1/pets');
  t.match(entry.request_body, { size: Buffer.byteLength(JSON.stringify(sent)), content_type: 'application/json' }, 'the request body, its size and type');
  t.notOk('truncated' in entry.request_body, 'whole');
  t.same(
    JSON.parse(entry.request_body.text),
    { name: 'Kitty', kind: 'cat', password: '[redacted]', apiKey: '[redacted]', nested: { client_secret: '[redacted]', note: 'keep me' } },
    'members named like credentials are redacted, at any depth; the rest is as sent',
  );
  t.notMatch(JSON.stringify(await logs(server)), /hunter2|k-123|"s3"/, 'no credential anywhere in the log');
  t.match(entry.response_body, { text: answered, size: Buffer.byteLength(answered) }, 'the response body as the client got it');

  const form = await fetch(`${server.url}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'user=tom&access_token=abc&Password=xyz' });
  await form.text();
  t.equal((await entryFor(server, '/login')).request_body.text, 'user=tom&access_token=%5Bredacted%5D&Password=%5Bredacted%5D', 'form fields too');

  const multipart = new FormData();
  multipart.append('user', 'tom');
  multipart.append('password', 'hunter2');
  multipart.append('file', new Blob([Buffer.from([0xff, 0xfe, 0x00])], { type: 'application/octet-stream' }), 'a.bin');
  await (await fetch(`${server.url}/upload-form`, { method: 'POST', body: multipart })).text();
  const parts = (await entryFor(server, '/upload-form')).request_body;
  t.equal(parts.encoding, 'base64', 'multipart data with a binary file: base64');
  const decoded = Buffer.from(parts.text, 'base64').toString('latin1');
  t.match(decoded, /name="password"\r\n\r\n\[redacted\]\r\n--/, 'its password field redacted all the same');
  t.match(decoded, /name="user"\r\n\r\ntom\r\n/, 'the other fields as sent');
  t.ok(decoded.includes('\xff\xfe\x00'), 'the file\'s bytes untouched');

  const bytes = Buffer.from([0xff, 0x00, 0x01, 0xfe]);
  await (await fetch(`${server.url}/upload`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: bytes })).text();
  t.match((await entryFor(server, '/upload')).request_body, { text: bytes.toString('base64'), encoding: 'base64', size: 4 }, 'binary as base64, marked');

  const big = JSON.stringify({ token: 'secret-at-the-start', pad: 'x'.repeat(400_000) });
  await (await fetch(`${server.url}/big`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big })).text();
  const cut = (await entryFor(server, '/big')).request_body;
  t.match(cut, { size: big.length, truncated: true }, 'past max_body_bytes: marked truncated, with the whole size');
  t.equal(cut.text.length, 300_000 - 'secret-at-the-start'.length + '[redacted]'.length, 'its first max_body_bytes, redacted');
  t.ok(cut.text.startsWith('{"token":"[redacted]","pad":"xxx'), 'a truncated JSON body is redacted too');

  // 1 MB holds three 300 kB bodies: the oldest lose theirs, with one warning
  for (let i = 0; i < 4; i++) await (await fetch(`${server.url}/big/${i}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: String(i).repeat(300_000) })).text();
  const bigOnes = await until(async () => {
    const found = await logs(server, '?path=/big/*');
    return found.length === 4 && found;
  }, 5000, 'four entries');
  t.same(
    bigOnes.map((e) => e.request_body?.size ?? null),
    [300_000, 300_000, 300_000, null],
    'newest first: the oldest body is forgotten past max_store_mb, its entry stays',
  );
  t.notOk('request_body' in (await entryFor(server, '/big')), 'older bodies went first');
  await until(() => /logging\.bodies\.max_store_mb/.test(server.stdout), 5000, 'the warning');
  t.equal(server.stdout.match(/bodies of older entries forgotten/g).length, 1, 'one warning for every eviction of the minute');
  t.notMatch(server.stdout, /x{1000}|"request_body"|"response_body"/, 'the console lines carry no bodies');
});

t.test('a refusal carries its code and detail, in the entry and on the console line', async (t) => {
  const server = await serveWith(`${ADMIN}logging:\n  format: json\n`);
  t.teardown(() => server.stop());
  const refused = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"kind":"cat"}' });
  await refused.text();
  t.equal(refused.status, 400);
  const detail = refused.headers.get('x-mock-error-detail');
  const entry = await entryFor(server, '/v1/pets');
  t.same(entry.error, { code: 'MOCK_ERR_REQUEST_INVALID', detail }, 'the code and the detail X-Mock-Error-Detail carries');
  t.equal(entry.error_message, detail, 'error_message says why, not –');
  t.equal(entry.request_body.text, '{"kind":"cat"}', 'and what was sent');
  const missing = await fetch(`${server.url}/nowhere`);
  await missing.text();
  t.match((await entryFor(server, '/nowhere')).error, { code: 'MOCK_ERR_ROUTE_NOT_FOUND', detail: missing.headers.get('x-mock-error-detail') }, 'a 404 says which route was missing');
  const ok = await fetch(`${server.url}/v1/pets/1`);
  await ok.text();
  const answered = await entryFor(server, '/v1/pets/1');
  t.equal(answered.error_message, null, 'an answer has no reason');
  t.notOk('error' in answered);
  const line = await until(() => server.stdout.split('\n').find((l) => l.includes('"POST /v1/pets 400')), 5000, 'the console line');
  t.match(JSON.parse(line).msg, new RegExp(`^POST /v1/pets 400 \\d+ms MOCK_ERR_REQUEST_INVALID: ${detail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`), 'the console line says why');
});

t.test('logging.bodies.enabled: false keeps none', async (t) => {
  const server = await serveWith(`${ADMIN}logging:\n  bodies: { enabled: false }\n`, { level: 'warn' });
  t.teardown(() => server.stop());
  await (await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Kitty","kind":"cat"}' })).text();
  const entry = await entryFor(server, '/v1/pets');
  t.equal(entry.status_code, 201);
  t.notOk('request_body' in entry || 'response_body' in entry, 'no body in the entry');
});
