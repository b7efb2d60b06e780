// WebSocket upgrades run through the request chain's upgrade stages, through the real CLI and real
// clients (the ws package, bare sockets) on both backends: the rate limit (429 with Retry-After),
// the connection limit (websocket.max_connections, and traffic shaping's), the bulkhead (held for
// a session's life), the circuit breaker and fault injection refuse an upgrade over HTTP before the
// handshake; latency is held before every message and logged; every upgrade, refused or played, is
// one request-log entry and is counted in the traffic statistics and the Prometheus metrics. Also
// the close code of a session `ws` failed for a protocol error, and the handshake checks of the
// other WebSocket endpoints (GraphQL subscriptions, the admin's live stream).
import t from 'tap';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, root, startMock, tmpdir } from '../helpers/cli.js';
import { connect } from '../helpers/websocket.js';
import { until } from '../helpers/wait.js';

const spec = path.join(root, 'examples', 'petstore.yaml');
const shop = path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql');
const out = await buildOnce(spec);

function start(backend) {
  const dir = tmpdir();
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    `specs: [${JSON.stringify(spec)}]
server: { http_backend: ${backend}, ws_port: 0, graphql_port: 0 }
graphql: { schema: ${JSON.stringify(shop)} }
websocket:
  max_connections: 3
  routes:
    - { path: '/echo/{any}', echo: true }
`,
  );
  return startMock(['-c', path.join(dir, 'mock.yaml'), '--out', out, '--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0'], { cwd: dir });
}
const servers = { uws: start('uws'), node: start('node') };
t.teardown(async () => Promise.all(Object.values(servers).map(async (s) => (await s).stop())));

/** A handshake on a bare socket; resolves with the status line and headers of the answer, or `dropped` when the connection ends without one. */
function handshake(url, headers = {}) {
  const { hostname, port, pathname } = new URL(url);
  const all = { Host: `${hostname}:${port}`, Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Key': randomBytes(16).toString('base64'), 'Sec-WebSocket-Version': '13', ...headers };
  const head = Object.entries(all).filter(([, value]) => value !== undefined).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`GET ${pathname} HTTP/1.1\r\n${head}\r\n`));
    let text = '';
    const done = () => {
      socket.destroy();
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return resolve({ dropped: true });
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), headers: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()])), body: text.slice(end + 4) });
    };
    socket.on('data', (d) => {
      text += d.toString('utf8');
      if (text.includes('\r\n\r\n') && text.startsWith('HTTP/1.1 101')) done();
    });
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
}

for (const backend of ['uws', 'node']) {
  t.test(`on ${backend}`, async (t) => {
    const server = await servers[backend];
    const ws = server.wsUrl;
    const admin = async (p) => (await (await fetch(`${server.adminUrl}/__mock/${p}`)).json()).data;
    const send = (p, body, method = 'POST') => fetch(`${server.adminUrl}/__mock/${p}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const calm = () => send('chaos/config/reset', {});
    // each test's chaos is reset when it ends, however it ends, so that one failure does not spill into the next
    const chaos = async (t, settings) => {
      t.teardown(calm);
      t.equal((await send('chaos/config', { enabled: true, ...settings }, 'PUT')).status, 200, `chaos ${Object.keys(settings).join(', ')} on`);
    };
    /** Opens a connection closed when the test ends. */
    const opened = async (t, url) => {
      const c = await connect(url);
      t.teardown(() => c.ws.terminate());
      return c;
    };
    const idle = () => until(async () => (await admin('websocket')).server.active_connections === 0, 10_000, 'every connection closed');
    const logged = (p) => until(async () => (await admin(`logs?path=${p}`))[0], 5000, `the log entry of ${p}`);

    t.test('the rate limit refuses an upgrade with 429 and Retry-After before the handshake', async (t) => {
      await chaos(t, { rate_limit: { enabled: true, requests_per_second: 0.01, burst_size: 1, per_endpoint: true } });
      const first = await opened(t, `${ws}/echo/rate-1`);
      const refused = await connect(`${ws}/echo/rate-2`).catch((e) => e);
      refused.ws?.terminate(); // admitted where the stage is missing: closed at once
      t.equal(refused.status, 429, 'the second upgrade on the route is over the limit');
      t.ok(Number(refused.headers['retry-after']) >= 1, `Retry-After in whole seconds (${refused.headers['retry-after']})`);
      t.equal(refused.headers['x-mock-error-code'], 'MOCK_ERR_RATE_LIMITED');
      t.match(await logged('/echo/rate-2'), { method: 'GET', status_code: 429, error_message: 'Rate limit exceeded' }, 'the refusal is a request-log entry');
      first.close();
      await first.closed;
    });

    t.test('the connection limit: websocket.max_connections and traffic shaping, 503 before the handshake; refusals are counted', async (t) => {
      await idle();
      const before = (await admin('metrics')).requests_by_endpoint['WS /echo/{any}'] ?? 0;
      const open = [];
      for (let i = 0; i < 3; i++) open.push(await opened(t, `${ws}/echo/limit-${i}`));
      const refused = await connect(`${ws}/echo/limit-3`).catch((e) => e);
      refused.ws?.terminate(); // admitted where the stage is missing: closed at once
      t.equal(refused.status, 503, 'the fourth upgrade with max_connections 3');
      t.match(JSON.parse(refused.body), { code: 'MOCK_ERR_WS_CONNECTION_LIMIT' }, 'the problem names websocket.max_connections');
      t.equal((await admin('metrics')).requests_by_endpoint['WS /echo/{any}'], before + 1, 'the refused upgrade is counted at once; open sessions when they end');
      open.pop().close();
      await chaos(t, { traffic_shaping: { enabled: true, max_connections: 2 } });
      await until(async () => (await admin('websocket')).server.active_connections === 2, 5000, 'two open');
      const shaped = await connect(`${ws}/echo/limit-4`).catch((e) => e);
      shaped.ws?.terminate(); // admitted where the stage is missing: closed at once
      t.equal(shaped.status, 503, 'traffic_shaping.max_connections 2 applies to upgrades too');
      t.match(JSON.parse(shaped.body), { code: 'MOCK_ERR_CHAOS_CONNECTION_LIMIT' });
      for (const c of open) c.close();
      await idle();
    });

    t.test('the bulkhead holds a place for a session until it ends; the circuit breaker opens on failed upgrades', async (t) => {
      await chaos(t, { bulkhead: { enabled: true, max_concurrent_requests: 1, max_queue_size: 0 } });
      const first = await opened(t, `${ws}/echo/bulkhead-1`);
      const refused = await connect(`${ws}/echo/bulkhead-2`).catch((e) => e);
      refused.ws?.terminate(); // admitted where the stage is missing: closed at once
      t.equal(refused.status, 503, 'a second session while the first is open');
      t.match(JSON.parse(refused.body), { code: 'MOCK_ERR_CHAOS_BULKHEAD_FULL' });
      first.close();
      await first.closed;
      await idle();
      const again = await connect(`${ws}/echo/bulkhead-3`);
      t.pass('its place is given back when the session ends');
      again.close();
      await again.closed;

      await chaos(t, { circuit_breaker: { enabled: true, failure_threshold: 1, timeout_ms: 60_000 }, fault_injection: { enabled: true, http_errors: [500], http_error_probability: 1 } });
      const failed = await connect(`${ws}/echo/breaker-1`).catch((e) => e);
      failed.ws?.terminate(); // admitted where the stage is missing: closed at once
      t.equal(failed.status, 500, 'fault injection answers the upgrade with an HTTP error');
      const open = await connect(`${ws}/echo/breaker-2`).catch((e) => e);
      open.ws?.terminate(); // admitted where the stage is missing: closed at once
      t.equal(open.status, 503, 'then the breaker is open');
      t.match(JSON.parse(open.body), { code: 'MOCK_ERR_CHAOS_CIRCUIT_OPEN' });
      t.ok(Number(open.headers['retry-after']) >= 1, 'with Retry-After');
    });

    t.test('fault injection: connection errors answer 503 or drop the connection, as before', async (t) => {
      await chaos(t, { fault_injection: { enabled: true, connection_errors: true, connection_error_probability: 1 } });
      const refused = await connect(`${ws}/echo/fault-503`).catch((e) => e);
      refused.ws?.terminate(); // admitted where the stage is missing: closed at once
      t.equal(refused.status, 503);
      t.equal(refused.headers['x-mock-fault'], 'connection_error;kind=http_503');
      await chaos(t, { fault_injection: { enabled: true, connection_errors: true, connection_error_probability: 1, connection_error_kind: 'tcp_close' } });
      t.same(await handshake(`${ws}/echo/fault-drop`), { dropped: true }, 'tcp_close: the connection ends without an answer');
      t.match(await logged('/echo/fault-drop'), { status_code: 0, chaos: { fault: 'tcp_close' } }, 'logged with the fault');
    });

    t.test('latency is held before every message and is in the session log entry', async (t) => {
      const echoMs = async (p) => {
        const c = await connect(`${ws}${p}`);
        const sent = performance.now();
        c.send('a');
        await c.next();
        const ms = performance.now() - sent;
        c.close();
        await c.closed;
        return ms;
      };
      const baseline = await echoMs('/echo/latency-0');
      t.teardown(() => send('config/latency', { enabled: false, base_ms: 0, jitter_ms: 0 }));
      t.equal((await send('config/latency', { enabled: true, base_ms: 300, jitter_ms: 0 })).status, 200);
      const held = await echoMs('/echo/latency-300');
      t.ok(held - baseline >= 250, `the echo waited for the latency (${held.toFixed(0)} ms, ${baseline.toFixed(0)} ms without)`);
      t.match(await logged('/echo/latency-300'), { status_code: 101, chaos: { latency_ms: 300 }, websocket: { messages_in: 1, messages_out: 1 } }, 'the latency in the log');
    });

    t.test('sessions are in the request log and the traffic statistics as every exchange', async (t) => {
      await idle();
      const before = await admin('metrics');
      const c = await connect(`${ws}/echo/counted?room=1`);
      c.send('hello');
      await c.next();
      c.close(4001, 'bye');
      await c.closed;
      t.match(await logged('/echo/counted'), { method: 'GET', status_code: 101, response_size_bytes: 5, websocket: { messages_in: 1, messages_out: 1, close_code: 4001, close_reason: 'bye', played: 'echo' } });
      const after = await until(async () => {
        const m = await admin('metrics');
        return m.total_requests > before.total_requests ? m : undefined;
      }, 5000, 'the session counted');
      t.equal(after.requests_by_endpoint['WS /echo/{any}'], (before.requests_by_endpoint['WS /echo/{any}'] ?? 0) + 1, 'counted under its route');
      const prometheus = await (await fetch(`${server.metricsUrl}/metrics`)).text();
      t.match(prometheus, /mock_http_requests_total\{method="WS",route="\/echo\/\{any\}",status="101",source="echo"\} [1-9]/, 'Prometheus: upgrades per route and status');
      t.match(prometheus, /mock_http_requests_total\{method="WS",route="\/echo\/\{any\}",status="503",source="refusal"\} [1-9]/, 'and the refused ones');
    });

    t.test('a session `ws` or uWS fails for a protocol error is logged with its close code and reason', async (t) => {
      const c = await connect(`${ws}/echo/utf8`);
      c.ws.send(Buffer.from([0x68, 0xc3, 0x28]), { binary: false });
      await c.closed;
      const entry = await logged('/echo/utf8');
      if (backend === 'node') t.match(entry.websocket, { close_code: 1007, close_reason: /invalid UTF-8/ }, 'the close frame ws sent');
      else t.match(entry.websocket, { close_code: 1006, close_reason: /UTF-8/ }, 'uWS drops the connection without a close frame, and says why');
    });

    t.test('GraphQL subscriptions and the admin live stream check the handshake as the WebSocket mock does', async (t) => {
      const graphql = /GraphQL on (http:\/\/\S+)/.exec(server.stdout)[1].replace(/^http/, 'ws');
      for (const url of [graphql, `${server.adminUrl.replace(/^http/, 'ws')}/__mock/ws`]) {
        const where = new URL(url).pathname;
        const nokey = await handshake(url, { 'Sec-WebSocket-Key': undefined, 'Sec-WebSocket-Protocol': 'graphql-transport-ws' });
        t.equal(nokey.status, 400, `${where}: no key`);
        t.match(JSON.parse(nokey.body), { code: 'MOCK_ERR_WS_HANDSHAKE', detail: `GET ${where}: Sec-WebSocket-Key is missing; a WebSocket client sends 16 random bytes in base64 there (RFC 6455 4.1)` });
        const old = await handshake(url, { 'Sec-WebSocket-Version': '8', 'Sec-WebSocket-Protocol': 'graphql-transport-ws' });
        t.equal(old.status, 426, `${where}: version 8`);
        t.equal(old.headers['sec-websocket-version'], '13');
        t.match(JSON.parse(old.body), { code: 'MOCK_ERR_WS_VERSION' });
      }
    });
  });
}
