// How `mock tui` gets its live data, against a stand-in admin server: the WebSocket stream of
// docs/dashboard.md (hello, metrics, logs after subscribe), and polling GET /__mock/logs and
// /__mock/metrics when the upgrade is refused; entries are never shown twice.
import t from 'tap';
import http from 'node:http';
import { WebSocketServer } from 'ws';
import { AdminApi } from '../../dist/src/tui/admin-api.js';
import { LiveFeed } from '../../dist/src/tui/feed.js';
import { LiveStore } from '../../dist/src/tui/store.js';
import { until } from '../helpers/wait.js';

const entry = (n, status = 200) => ({ id: `e-${n}`, timestamp: new Date().toISOString(), method: 'GET', path: `/v1/pets/${n}`, status_code: status, response_time_ms: n });

/** An admin API with `logs` (newest first, as the server answers) and `total`; `stream` false refuses the upgrade with 404. */
async function adminServer(t, { stream }) {
  const state = { logs: [entry(1), entry(2)], total: 2, subscribed: [], sockets: new Set() };
  const send = (res, status, data) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: status < 400, data, error: status < 400 ? null : 'nope', timestamp: new Date().toISOString() }));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/__mock/api/logs') return send(res, 200, [...state.logs].reverse().slice(0, Number(url.searchParams.get('limit') ?? 1000)));
    if (url.pathname === '/__mock/api/metrics') return send(res, 200, { total_requests: state.total, memory_usage_over_time: [['t', 50]], cpu_usage_over_time: [['t', 2]] });
    send(res, 404, null);
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (!stream || req.url !== '/__mock/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      state.sockets.add(ws);
      ws.send(JSON.stringify({ type: 'hello', version: 'test', interval_ms: 1000 }));
      ws.on('message', (raw) => state.subscribed.push(JSON.parse(String(raw))));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => {
    for (const ws of state.sockets) ws.terminate();
    wss.close();
    server.closeAllConnections?.();
    return new Promise((r) => server.close(r));
  });
  return { url: `http://127.0.0.1:${server.address().port}`, state, server };
}

function feedOf(t, url, options = {}) {
  const store = new LiveStore({ minIntervalMs: 10 });
  const feed = new LiveFeed(new AdminApi({ 'admin-url': url }), store, { pollMs: 100, ...options });
  t.teardown(() => {
    feed.stop();
    store.close();
  });
  return { store, feed, live: () => store.getSnapshot() };
}

t.test('the WebSocket stream: subscribes to logs, takes metrics and entries, never an entry twice', async (t) => {
  const admin = await adminServer(t, { stream: true });
  const { feed, live } = feedOf(t, admin.url);
  await feed.start();
  await until(() => live().stream.mode === 'websocket', 5000, 'the stream');
  t.same(live().logs.map((e) => e.id), ['e-1', 'e-2'], 'the backlog first, oldest first');
  await until(() => admin.state.subscribed.length > 0, 5000, 'the subscription');
  t.same(admin.state.subscribed[0], { type: 'subscribe', logs: true });
  const [ws] = admin.state.sockets;
  // e-2 again: an entry the backlog already had when the subscription started
  ws.send(JSON.stringify({ type: 'logs', entries: [entry(2), entry(3, 500)] }));
  ws.send(JSON.stringify({ type: 'metrics', data: { ts: '2026-01-01T00:00:00.000Z', total_requests: 3, requests_per_second: 3, errors_per_second: 1, error_rate: 0.33, response_time_ms: { p50: 1, p95: 3, p99: 3 }, active_connections: 1, memory_usage_mb: 60, cpu_usage_percent: 1, chaos_injected: { latency: 2 } } }));
  ws.send('not json');
  await until(() => live().samples.length === 1 && live().logs.length === 3, 5000, 'the messages');
  t.same(live().logs.map((e) => e.id), ['e-1', 'e-2', 'e-3']);
  t.match(live().samples[0], { total_requests: 3, requests_per_second: 3, errors_per_second: 1, p95_ms: 3, active_connections: 1, chaos_injected: { latency: 2 } });
});

t.test('no stream (404 on upgrade): polls logs and metrics, computing the rates itself', async (t) => {
  const admin = await adminServer(t, { stream: false });
  const { feed, live } = feedOf(t, admin.url);
  await feed.start();
  await until(() => live().stream.mode === 'polling', 5000, 'polling');
  t.match(live().stream.detail, /no stream at \/__mock\/ws \(HTTP 404\)/);
  await until(() => live().samples.length >= 1, 5000, 'a first sample');
  admin.state.logs.push(entry(3), entry(4, 503));
  admin.state.total = 4;
  await until(() => live().logs.length === 4 && live().samples.some((s) => s.total_requests === 4), 5000, 'the new entries');
  t.same(live().logs.map((e) => e.id), ['e-1', 'e-2', 'e-3', 'e-4'], 'each entry once, oldest first');
  const sample = live().samples.find((s) => s.total_requests === 4);
  t.ok(sample.requests_per_second > 0, `requests/s ${sample.requests_per_second}`);
  t.ok(sample.errors_per_second > 0, `errors/s ${sample.errors_per_second}`);
  t.equal(sample.p95_ms, 4, 'p95 of the new entries');
  t.equal(sample.memory_usage_mb, 50);

  // the server goes away: offline, with the one line of why
  for (const socket of admin.state.sockets) socket.terminate();
  admin.server.closeAllConnections?.();
  await new Promise((r) => admin.server.close(r));
  await until(() => live().stream.mode === 'offline', 5000, 'offline');
  // a poll in flight when the server closed sees its socket end; the next ones are refused
  t.match(live().stream.detail, /cannot reach the admin API at http:\/\/127\.0\.0\.1:\d+ \((ECONNREFUSED|UND_ERR_SOCKET)\)/);
});
