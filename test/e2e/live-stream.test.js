// The admin WebSocket stream (/__mock/ws: metrics every second, request log entries on subscribe)
// and GET /__mock/unmatched (the closest routes of requests nothing matched, field by field),
// through `mock serve --admin` with real WebSocket clients and raw sockets (docs/dashboard.md).
import t from 'tap';
import net from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { startMock, tmpdir } from '../helpers/cli.js';
import { jsonBody } from '../helpers/admin.js';
import { until } from '../helpers/wait.js';

const MAX_CLIENTS = 3;
const dir = tmpdir();
const answer = { 200: { description: 'ok', content: { 'application/json': { example: { ok: true } } } } };
writeFileSync(
  path.join(dir, 'api.json'),
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    paths: {
      '/v1/pets': { get: { responses: answer }, post: { responses: answer } },
      '/v1/pets/{petId}': { get: { parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }], responses: answer } },
      '/v1/owners': { get: { responses: answer } },
    },
  }),
);
writeFileSync(path.join(dir, 'mock.yaml'), `specs: [api.json]\nlogging:\n  redact: [api_key]\nadmin:\n  limits: { max_log_subscribers: ${MAX_CLIENTS} }\n`);

const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--admin', '--admin-port', '0'], { cwd: dir });
t.teardown(() => server.stop());
const admin = server.adminUrl;
const streamUrl = `${admin.replace('http', 'ws')}/__mock/ws`;

/** A stream client that keeps every message it gets. */
async function connect(headers = {}) {
  const ws = new WebSocket(streamUrl, { headers });
  const messages = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, messages, of: (type) => messages.filter((m) => m.type === type) };
}

/** The status a refused handshake gets. */
function refusedWith(headers) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(streamUrl, { headers });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    ws.once('open', () => reject(new Error('the handshake was accepted')));
    ws.once('error', () => {});
  });
}

t.test('hello, then metrics every second whether subscribed or not', async (t) => {
  const client = await connect();
  t.teardown(() => client.ws.close());
  await until(() => client.of('metrics').length >= 1, 5000, 'a metrics message');
  t.same(client.messages[0], { type: 'hello', version: client.messages[0].version, interval_ms: 1000 }, 'hello first');
  // each 404 between answered requests: an interval that counts an error counts answers too, wherever
  // the second's boundary falls
  for (let i = 0; i < 5; i++) for (const path of ['pets', 'pets', 'nothing', 'pets', 'pets']) await fetch(`${server.url}/v1/${path}`);
  const before = client.of('metrics').length;
  await until(() => client.of('metrics').some((m) => m.data.total_requests >= 25), 5000, 'metrics counting the requests');
  const seen = client.of('metrics').slice(before - 1);
  const data = seen.at(-1).data;
  t.match(data, { ts: String, total_requests: Number, active_connections: Number, memory_usage_mb: Number, cpu_usage_percent: Number, chaos_injected: Object }, 'the documented fields');
  const rates = seen.map((m) => m.data.requests_per_second);
  t.ok(rates.some((r) => r > 0), `a rate over the interval that saw the requests (${rates.join(', ')})`);
  const busy = seen.find((m) => m.data.errors_per_second > 0)?.data;
  t.ok(busy !== undefined && busy.error_rate > 0 && busy.error_rate < 1, `errors counted apart (error rate ${busy?.error_rate})`);
  t.type(busy.response_time_ms.p99, 'number', 'percentiles of that interval');
  t.ok(busy.response_time_ms.p50 <= busy.response_time_ms.p99, 'p50 ≤ p99');
  t.equal(client.of('logs').length, 0, 'no log entries without a subscription');
});

t.test('subscribe: log entries as they happen, filtered, with route and query; unsubscribe stops them', async (t) => {
  const client = await connect();
  t.teardown(() => client.ws.close());
  client.ws.send(JSON.stringify({ type: 'subscribe', logs: true, filter: { path: '/v1/pets/**', status: 200 } }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  await fetch(`${server.url}/v1/owners`);
  await fetch(`${server.url}/v1/pets/7?api_key=s3cret&x=1`);
  await until(() => client.of('logs').length >= 1, 5000, 'a logs message');
  const entries = client.of('logs').flatMap((m) => m.entries);
  t.equal(entries.length, 1, 'only the entry the filter keeps');
  t.match(entries[0], { method: 'GET', path: '/v1/pets/7', status_code: 200, route: 'GET /v1/pets/{petId}' }, 'the request log entry with its route');
  t.equal(entries[0].query, 'api_key=%5Bredacted%5D&x=1', 'the query, its secret parameter redacted');

  client.ws.send(JSON.stringify({ type: 'subscribe', logs: false }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const count = client.of('logs').length;
  await fetch(`${server.url}/v1/pets/8`);
  await until(() => client.of('metrics').some((m) => m.data.total_requests > 0) && client.messages.length > count + 1, 5000, 'another message');
  t.equal(client.of('logs').length, count, 'nothing more after logs: false');
});

t.test('a burst arrives batched: fewer messages than entries, none lost', async (t) => {
  const client = await connect();
  t.teardown(() => client.ws.close());
  client.ws.send(JSON.stringify({ type: 'subscribe', logs: true, filter: { path: '/v1/owners' } }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  await Promise.all(Array.from({ length: 200 }, () => fetch(`${server.url}/v1/owners`).then((r) => r.arrayBuffer())));
  await until(() => client.of('logs').flatMap((m) => m.entries).length >= 200, 5000, '200 entries');
  const messages = client.of('logs');
  t.equal(messages.flatMap((m) => m.entries).length, 200, 'every entry');
  t.ok(messages.length < 200, `in ${messages.length} messages`);
});

t.test('past max_per_second, entries are counted as dropped, not sent', async (t) => {
  const client = await connect();
  t.teardown(() => client.ws.close());
  client.ws.send(JSON.stringify({ type: 'subscribe', logs: true, filter: { path: '/v1/owners' }, max_per_second: 20 }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  await Promise.all(Array.from({ length: 150 }, () => fetch(`${server.url}/v1/owners`).then((r) => r.arrayBuffer())));
  const count = (key) => client.of('logs').reduce((sum, m) => sum + (key === 'entries' ? m.entries.length : (m.dropped ?? 0)), 0);
  await until(() => count('entries') + count('dropped') >= 150, 5000, '150 entries sent or counted');
  t.equal(count('entries') + count('dropped'), 150, 'every entry sent or counted');
  t.ok(count('entries') <= 40, `at most 20 a second were sent (${count('entries')})`);
  t.ok(count('dropped') >= 110, `the rest counted as dropped (${count('dropped')})`);
});

t.test('bad messages get an error message naming what is wrong; the stream stays open', async (t) => {
  const client = await connect();
  t.teardown(() => client.ws.close());
  client.ws.send('not json');
  client.ws.send(JSON.stringify({ type: 'watch' }));
  client.ws.send(JSON.stringify({ type: 'subscribe', logs: true, filter: { status: 'teapot' } }));
  // a gRPC status name is a filter (no error of its own: the next error is the next message's)
  client.ws.send(JSON.stringify({ type: 'subscribe', logs: true, filter: { status: 'not_found' } }));
  client.ws.send(JSON.stringify({ type: 'subscribe', logs: true, max_per_second: 0 }));
  await until(() => client.of('error').length >= 4, 5000, 'four errors');
  const errors = client.of('error').map((m) => m.message);
  t.match(errors[0], /JSON objects/);
  t.match(errors[1], /one message type: \{"type":"subscribe"/);
  t.match(errors[2], /filter\.status must be an HTTP status such as 404 or a gRPC status name such as NOT_FOUND/);
  t.match(errors[3], /max_per_second must be an integer from 1 to 10000/);
  t.equal(client.ws.readyState, WebSocket.OPEN, 'still open');
});

t.test('the handshake passes the admin guards: a foreign Origin or Host is 403, a client past the limit 503', async (t) => {
  const foreign = await refusedWith({ Origin: 'http://evil.example' });
  t.equal(foreign.status, 403, 'a page of another site cannot read the stream');
  t.match(foreign.body, /origin http:\/\/evil\.example are not allowed/);
  const rebinding = await refusedWith({ Host: 'evil.example' });
  t.equal(rebinding.status, 403, 'nor a rebound host name');
  const mockPage = await refusedWith({ Origin: server.url });
  t.equal(mockPage.status, 403, 'nor a page on the mock port');

  const local = await connect({ Origin: 'http://localhost:5173' });
  const clients = [local];
  t.teardown(() => clients.forEach((c) => c.ws.close()));
  for (let i = 1; i < MAX_CLIENTS; i++) clients.push(await connect());
  const full = await refusedWith({});
  t.equal(full.status, 503, `client ${MAX_CLIENTS + 1} is refused`);
  t.match(full.body, /admin\.limits\.max_log_subscribers/, 'naming the setting');
  clients.pop().ws.close();
  await until(async () => {
    const again = new WebSocket(streamUrl);
    const opened = await new Promise((resolve) => {
      again.once('open', () => resolve(true));
      again.once('unexpected-response', () => resolve(false));
      again.once('error', () => resolve(false));
    });
    if (opened) clients.push({ ws: again });
    return opened;
  }, 5000, 'a free place');
  t.pass('a closed client frees its place');
});

t.test('a client that stops reading is closed, with one warning naming it', async (t) => {
  const port = Number(new URL(admin).port);
  let socket;
  // the places the earlier tests' clients held are freed once their closing handshakes end
  await until(async () => {
    socket?.destroy();
    socket = net.connect({ port, host: '127.0.0.1' });
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /__mock/ws HTTP/1.1\r\nHost: localhost\r\nUser-Agent: stuck-reader\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n');
    const head = await new Promise((resolve) => socket.once('data', resolve));
    return head.toString('latin1').startsWith('HTTP/1.1 101');
  }, 5000, 'an upgraded stuck client');
  t.teardown(() => socket.destroy());
  socket.write(maskedText(JSON.stringify({ type: 'subscribe', logs: true })));
  socket.pause();
  const closed = new Promise((resolve) => socket.once('close', resolve));
  // ~3 KB of headers per entry: tens of MB of entries the client never reads
  const pad = 'p'.repeat(3000);
  for (let round = 0; round < 40; round++) {
    await Promise.all(Array.from({ length: 100 }, () => fetch(`${server.url}/v1/owners`, { headers: { 'x-pad': pad } }).then((r) => r.arrayBuffer())));
    if (/live stream: closed client/.test(server.stdout + server.stderr)) break;
  }
  await until(() => /live stream: closed client 127\.0\.0\.1 \("stuck-reader"\): it did not read \d+ bytes of earlier messages/.test(server.stdout + server.stderr), 10_000, 'the warning');
  socket.resume();
  t.equal(await Promise.race([closed.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still open'), 5000))]), 'closed', 'the server closed it');
});

t.test('GET /__mock/unmatched: each 404 with its closest routes and every field they failed on', async (t) => {
  const created = await fetch(`${admin}/__mock/mocks`, {
    method: 'POST',
    ...jsonBody({ id: 'beta-owners', method: 'GET', path: '/v2/owners', match_headers: { 'x-beta': 'yes' }, match_query: { tier: 'gold' }, response: { body: { beta: true } } }),
  });
  t.equal(created.status, 201, 'a runtime mock with conditions');
  t.equal((await fetch(`${server.url}/v1/pet/1`)).status, 404);
  t.equal((await fetch(`${server.url}/v2/owners?tier=silver`, { headers: { 'x-beta': 'no' } })).status, 404);
  t.equal((await fetch(`${server.url}/v1/pets`, { method: 'DELETE' })).status, 405, 'a documented path with another method');

  const body = await (await fetch(`${admin}/__mock/unmatched?limit=5`)).json();
  t.equal(body.success, true);
  const [owners, pet] = body.data;
  t.match(pet.entry, { method: 'GET', path: '/v1/pet/1', status_code: 404, route: null }, 'the request, newest second');
  t.match(pet.closest[0], { method: 'GET', path: '/v1/pets/{petId}', source: 'description', mismatches: [{ field: 'path', expected: 'pets', actual: 'pet' }] }, 'a typo in one segment ranks first');
  t.ok(pet.closest[0].score < pet.closest[1].score, 'ranked by score');
  t.match(owners.closest[0], { path: '/v2/owners', source: 'mock', mock_id: 'beta-owners' }, 'the runtime mock ranks first');
  t.same(
    owners.closest[0].mismatches.map((m) => [m.field, m.name, m.actual]),
    [
      ['header', 'x-beta', 'no'],
      ['query', 'tier', 'silver'],
    ],
    'its header and query conditions, each with what the request sent',
  );
  t.notOk(body.data.some((u) => u.entry.method === 'DELETE'), 'a 405 (the path exists) is not listed');

  const logs = await (await fetch(`${admin}/__mock/logs?unmatched=true`)).json();
  t.ok(logs.data.length >= 2 && logs.data.every((e) => e.route === null && e.status_code === 404), 'GET /__mock/logs?unmatched=true keeps the same entries');
  t.equal((await fetch(`${admin}/__mock/unmatched?limit=none`)).status, 400, 'a bad limit is a 400');
});

t.test('dashboard route rows name the stages that run for each route', async (t) => {
  const rows = async () => (await (await fetch(`${admin}/__mock/dashboard`)).json()).data.routes;
  t.same((await rows()).find((r) => r.path === '/v1/owners').stages, ['cors'], 'only CORS (on by default) while nothing else is on');
  const set = await fetch(`${admin}/__mock/config/latency`, { method: 'POST', ...jsonBody({ base_ms: 1, jitter_ms: 0 }) });
  t.equal(set.status, 200);
  t.teardown(() => fetch(`${admin}/__mock/config/latency`, { method: 'POST', ...jsonBody({ enabled: false, base_ms: 0, jitter_ms: 0 }) }));
  t.ok((await rows()).every((r) => r.stages.includes('latency')), 'latency on every route once it is set');
});

t.test('embedded (--admin-embed), the stream is on the mock port (uWebSockets.js), its page origin allowed', async (t) => {
  const own = await startMock(['-c', path.join(dir, 'mock.yaml'), '--admin-embed'], { cwd: dir });
  t.teardown(() => own.stop());
  const ws = new WebSocket(`${own.url.replace('http', 'ws')}/__mock/ws`, { headers: { Origin: own.url } });
  const messages = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  t.teardown(() => ws.close());
  ws.send(JSON.stringify({ type: 'subscribe', logs: true }));
  await until(() => messages.length >= 1, 5000, 'hello');
  await fetch(`${own.url}/v1/owners`);
  await until(() => messages.some((m) => m.type === 'logs'), 5000, 'a logs message');
  t.match(messages.find((m) => m.type === 'logs').entries[0], { path: '/v1/owners', route: 'GET /v1/owners' });
  t.equal((await fetch(`${own.url}/__mock/ws`)).status, 404, 'a plain GET there is the admin API\'s (no such endpoint)');
});

t.test('shutdown closes stream clients with 1001', async (t) => {
  const own = await startMock(['-c', path.join(dir, 'mock.yaml'), '--admin', '--admin-port', '0'], { cwd: dir });
  const ws = new WebSocket(`${own.adminUrl.replace('http', 'ws')}/__mock/ws`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
  await own.stop();
  t.equal(await closed, 1001, 'going away');
});

/** One masked text frame, as a client must send it (RFC 6455 5.3). */
function maskedText(text) {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}
