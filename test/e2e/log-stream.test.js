// The request log's live stream (GET /__mock/logs/sse) under a flood, through the real CLI, on
// both servers that serve it: the standalone admin server (node:http) and the mock's own port
// (--admin-embed, uWebSockets.js). Clients that stop reading are dropped with a warning instead
// of making the server hold every event for them; a client that reads keeps its events; past
// admin.limits.max_log_subscribers clients, 503.
import t from 'tap';
import net from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EventSource } from 'eventsource';
import { startMock, tmpdir } from '../helpers/cli.js';

const MAX_CLIENTS = 6;
const SLOW = 5;
/** Requests of the flood; unfixed, 5 stuck clients made the server hold ~2 KB x 5 per request. */
const FLOOD = 30_000;
/** A request header of 1.5 KB: each log entry carries the request headers. */
const PAD = 'p'.repeat(1500);

const dir = tmpdir();
const example = { content: { 'application/json': { example: { ok: true } } } };
writeFileSync(
  path.join(dir, 'api.json'),
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Flood', version: '1' },
    paths: Object.fromEntries(['/ping', '/mark'].map((p) => [p, { get: { responses: { 200: { description: 'ok', ...example } } } }])),
  }),
);
writeFileSync(path.join(dir, 'mock.yaml'), `specs: [api.json]\nadmin:\n  limits: { max_log_subscribers: ${MAX_CLIENTS} }\n`);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** A log-stream client on a raw socket that reads the answer's head, then never reads again. */
function stuckClient(port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', highWaterMark: 1024 });
    socket.on('error', () => {});
    socket.once('connect', () => socket.write('GET /__mock/logs/sse HTTP/1.1\r\nHost: localhost\r\nUser-Agent: stuck\r\n\r\n'));
    socket.once('data', (head) => {
      socket.pause();
      if (!head.toString('latin1').startsWith('HTTP/1.1 200')) reject(new Error(`stream refused: ${head}`));
      else resolve(socket);
    });
  });
}

/** Resolves true once the server has closed `socket` (reading what it holds first), false after `ms`. */
function closedByServer(socket, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.resume();
  });
}

/**
 * `total` GET requests over 4 keep-alive connections, 64 pipelined at a time, every 64th to /mark;
 * resolves with {marks, ms}.
 */
async function flood(port, total) {
  const request = (p) => `GET ${p} HTTP/1.1\r\nHost: localhost\r\nX-Pad: ${PAD}\r\n\r\n`;
  const batch = request('/ping').repeat(63) + request('/mark');
  const batches = Math.ceil(total / 64);
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, () => {
      const socket = net.connect(port, '127.0.0.1');
      let answered = 0;
      let tail = '';
      const next = () => {
        if (sent === batches) return false;
        sent++;
        socket.write(batch);
        return true;
      };
      socket.once('connect', next);
      return new Promise((resolve, reject) => {
        socket.on('error', reject);
        socket.on('data', (chunk) => {
          // count status lines; the tail carries one cut by a chunk boundary
          const text = tail + chunk.toString('latin1');
          answered += text.split('HTTP/1.1 ').length - 1;
          tail = text.slice(-8);
          if (answered < 64) return;
          answered -= 64;
          if (!next()) socket.end(resolve);
        });
      });
    }),
  );
  return { marks: batches, ms: performance.now() - started };
}

async function checkStream(t, server, streamUrl) {
  const port = Number(new URL(streamUrl).port);
  const mockPort = Number(new URL(server.url).port);
  const log = () => server.stdout + server.stderr;

  const reader = new EventSource(`${streamUrl}/__mock/logs/sse?path=/mark`);
  t.teardown(() => reader.close());
  const marks = [];
  reader.addEventListener('log', (event) => marks.push(JSON.parse(event.data)));
  await new Promise((resolve, reject) => {
    reader.onopen = resolve;
    reader.onerror = reject;
  });
  const stuck = [];
  for (let i = 0; i < SLOW; i++) stuck.push(await stuckClient(port));
  t.teardown(() => stuck.forEach((s) => s.destroy()));

  const refused = await fetch(`${streamUrl}/__mock/logs/sse`);
  t.equal(refused.status, 503, `client ${MAX_CLIENTS + 1} is refused`);
  if (refused.status === 503) {
    const body = await refused.json();
    t.match(body, { success: false, data: null }, 'in the envelope');
    t.match(body.error, /already has 6 clients.*admin\.limits\.max_log_subscribers/, 'naming the setting');
  } else await refused.body.cancel();

  const before = rssMb(server.child.pid);
  const loaded = await flood(mockPort, FLOOD);
  const grown = rssMb(server.child.pid) - before;
  t.comment(`${FLOOD} requests with ${SLOW} stuck clients: ${Math.round(FLOOD / (loaded.ms / 1000))} req/s; RSS grew ${grown.toFixed(1)} MB`);
  t.ok(grown < 100, `the server held no backlog for the stuck clients (RSS grew ${grown.toFixed(1)} MB; unfixed, 300+ MB)`);

  const closed = await Promise.all(stuck.map((socket) => closedByServer(socket, 5000)));
  t.same(closed, Array(SLOW).fill(true), 'every stuck client was disconnected');
  const warnings = log().match(/WARN.*log stream: disconnected client 127\.0\.0\.1 \("stuck"\): it had still not taken \d+ bytes of earlier events/g) ?? [];
  t.equal(warnings.length, SLOW, 'one warning line each, naming the client and why');

  for (let waited = 0; marks.length < loaded.marks && waited < 5000; waited += 50) await sleep(50);
  t.equal(marks.length, loaded.marks, 'the client that reads got every event it asked for');
  t.ok(marks.every((entry) => entry.path === '/mark'), 'and only those');
  t.equal(reader.readyState, EventSource.OPEN, 'and is still connected');

  const again = await fetch(`${streamUrl}/__mock/logs/sse`);
  t.equal(again.status, 200, 'the places of the dropped clients are free again');
  await again.body.cancel();

  const quiet = await flood(mockPort, FLOOD);
  t.comment(`the same flood without stuck clients: ${Math.round(FLOOD / (quiet.ms / 1000))} req/s`);
}

t.test('standalone admin server (node:http)', async (t) => {
  const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--admin', '--admin-port', '0'], { cwd: dir });
  t.teardown(() => server.stop());
  await checkStream(t, server, server.adminUrl);
});

t.test('embedded in the mock port (uWebSockets.js)', async (t) => {
  const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--admin-embed'], { cwd: dir });
  t.teardown(() => server.stop());
  await checkStream(t, server, server.url);
});
