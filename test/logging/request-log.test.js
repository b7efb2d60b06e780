// runtime/control/logging: the ring buffer behind GET /__mock/logs, request log entries, the info line.
import t from 'tap';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { RequestLog, RequestLogEntry, RingBuffer, pathMatcher } from '../../dist/runtime/control/logging/index.js';
import { readableAddress } from '../../dist/runtime/chain/exchange/index.js';

const ascii = (s) => new TextEncoder().encode(s).buffer;

/** A pino logger whose lines land in `lines` (parsed). */
const capture = (level = 'info') => {
  const lines = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
};

const record = (log, { method = 'GET', path = '/v1/pets', status = 200, ip = '127.0.0.1', headers = {}, size = 2, error = null } = {}) =>
  log.record({ method, path, status, durationMs: 0, client: typeof ip === 'string' ? ascii(ip) : ip, headers, responseBytes: size, error });

t.test('ring buffer: keeps the newest `capacity` items, newest first', (t) => {
  const ring = new RingBuffer(3);
  t.equal(ring.size, 0);
  t.same(ring.newest(), []);
  ring.push(1);
  ring.push(2);
  t.same(ring.newest(), [2, 1]);
  for (const n of [3, 4, 5]) ring.push(n);
  t.equal(ring.size, 3, 'never more than capacity');
  t.same(ring.newest(), [5, 4, 3], 'oldest overwritten');
  t.same(ring.newest(2), [5, 4], 'limit');
  t.same(ring.newest(Infinity, (n) => n % 2 === 1), [5, 3], 'filter');
  t.same(ring.newest(1, (n) => n < 5), [4], 'limit applies to kept items');
  ring.clear();
  t.equal(ring.size, 0);
  t.same(ring.newest(), []);
  ring.push(6);
  t.same(ring.newest(), [6], 'usable after clear');
  t.end();
});

t.test('ring buffer: wraps many times without losing order', (t) => {
  const ring = new RingBuffer(7);
  for (let i = 0; i < 1000; i++) ring.push(i);
  t.same(ring.newest(), [999, 998, 997, 996, 995, 994, 993]);
  t.throws(() => new RingBuffer(0), RangeError);
  t.throws(() => new RingBuffer(1.5), RangeError);
  t.end();
});

t.test('request log: an entry carries the spec fields', (t) => {
  const log = new RequestLog();
  const headers = { 'user-agent': 'tap', accept: 'application/json' };
  const before = Date.now();
  const entry = log.record({ method: 'POST', path: '/v1/pets', status: 201, durationMs: 12.4, client: ascii('10.0.0.7'), headers, responseBytes: 321 });
  t.ok(entry instanceof RequestLogEntry);
  const json = JSON.parse(JSON.stringify(entry));
  t.same(Object.keys(json).sort(), [
    'client_ip', 'error_message', 'headers', 'id', 'method', 'path', 'response_size_bytes', 'response_time_ms', 'status_code', 'timestamp', 'user_agent',
  ]);
  t.match(json, { method: 'POST', path: '/v1/pets', status_code: 201, client_ip: '10.0.0.7', user_agent: 'tap', headers, response_size_bytes: 321, error_message: null });
  t.ok(Number.isInteger(json.response_time_ms) && json.response_time_ms >= 12, `integer ms: ${json.response_time_ms}`);
  t.ok(Date.parse(json.timestamp) >= before - 1 && /Z$/.test(json.timestamp), 'ISO timestamp');
  t.match(json.id, /^[0-9a-f]{6}-[0-9a-z]+$/, 'short id');
  t.equal(entry.id, entry.id, 'stable id');
  t.equal(record(log, { headers: {} }).user_agent, null, 'no user-agent: null');
  t.equal(record(log, { error: 'boom' }).error_message, 'boom');
  t.end();
});

t.test('request log: ids are unique', (t) => {
  const log = new RequestLog({ capacity: 5000 });
  const ids = new Set();
  for (let i = 0; i < 5000; i++) ids.add(record(log).id);
  t.equal(ids.size, 5000);
  t.end();
});

t.test('request log: capacity, order and filters', (t) => {
  const log = new RequestLog({ capacity: 4 });
  t.equal(log.capacity, 4);
  record(log, { path: '/v1/pets/1' });
  record(log, { method: 'POST', path: '/v1/pets', status: 201 });
  record(log, { path: '/v1/pets/2', status: 404 });
  record(log, { method: 'DELETE', path: '/v1/pets/3', status: 204 });
  record(log, { path: '/v2/owners/1/pets/9' });
  t.equal(log.size, 4);
  const paths = (entries) => entries.map((e) => e.path);
  t.same(paths(log.recent()), ['/v2/owners/1/pets/9', '/v1/pets/3', '/v1/pets/2', '/v1/pets'], 'newest first, oldest dropped');
  t.same(paths(log.recent({ limit: 2 })), ['/v2/owners/1/pets/9', '/v1/pets/3']);
  t.same(paths(log.recent({ method: 'get' })), ['/v2/owners/1/pets/9', '/v1/pets/2'], 'method, any case');
  t.same(paths(log.recent({ status: 404 })), ['/v1/pets/2']);
  t.same(paths(log.recent({ path: '/v1/pets' })), ['/v1/pets'], 'no wildcard: exact path');
  t.same(paths(log.recent({ path: '/v1/pets/*' })), ['/v1/pets/3', '/v1/pets/2'], '* within a segment');
  t.same(paths(log.recent({ path: '/v2/**' })), ['/v2/owners/1/pets/9'], '** across segments');
  t.same(paths(log.recent({ method: 'GET', path: '/v1/**', limit: 5 })), ['/v1/pets/2'], 'filters combine');
  log.clear();
  t.same(log.recent(), []);
  t.end();
});

t.test('path patterns escape regular-expression characters', (t) => {
  t.ok(pathMatcher('/a.b/*')('/a.b/c'));
  t.notOk(pathMatcher('/a.b/*')('/axb/c'));
  t.notOk(pathMatcher('/a/*')('/a/b/c'));
  t.ok(pathMatcher('/a/**')('/a/b/c'));
  t.ok(pathMatcher('/(x)')('/(x)'));
  t.end();
});

t.test('client addresses are written the way people search for them', (t) => {
  t.equal(readableAddress('127.0.0.1'), '127.0.0.1');
  t.equal(readableAddress('0000:0000:0000:0000:0000:0000:0000:0001'), '::1', 'uWS spells IPv6 out in full');
  t.equal(readableAddress('0000:0000:0000:0000:0000:ffff:7f00:0001'), '127.0.0.1', 'IPv4 client of a dual-stack socket');
  t.equal(readableAddress('2001:0db8:0000:0000:0000:ff00:0042:8329'), '2001:db8::ff00:42:8329');
  t.equal(readableAddress('not:an:address'), 'not:an:address', 'left alone when unparsable');
  const log = new RequestLog();
  t.equal(record(log, { ip: '0000:0000:0000:0000:0000:0000:0000:0001' }).client_ip, '::1');
  t.end();
});

t.test('request log: subscribers see every entry until they unsubscribe', (t) => {
  const { logger, lines } = capture();
  const log = new RequestLog({ logger });
  const seen = [];
  const off = log.subscribe((e) => seen.push(e.path));
  log.subscribe(() => {
    throw new Error('bad subscriber');
  });
  record(log, { path: '/a' });
  off();
  record(log, { path: '/b' });
  t.same(seen, ['/a']);
  t.equal(log.size, 2, 'a failing subscriber does not stop recording');
  t.ok(lines.some((l) => l.level === 50 && /subscriber failed/.test(l.msg)), 'the failure is logged');
  t.end();
});

t.test('request log: one info line per request, with the entry under `request`', (t) => {
  const { logger, lines } = capture('info');
  const log = new RequestLog({ logger });
  record(log, { method: 'GET', path: '/v1/pets', status: 200, headers: { 'user-agent': 'tap' } });
  t.equal(lines.length, 1);
  t.equal(lines[0].level, 30, 'info');
  t.match(lines[0].msg, /^GET \/v1\/pets 200 \d+ms$/);
  t.match(lines[0].request, { method: 'GET', path: '/v1/pets', status_code: 200, client_ip: '127.0.0.1', user_agent: 'tap', error_message: null });
  t.end();
});

t.test('request log: above info, nothing is logged but the entry is still kept', (t) => {
  const { logger, lines } = capture('warn');
  const log = new RequestLog({ logger });
  record(log);
  t.equal(lines.length, 0);
  t.equal(log.size, 1);
  logger.level = 'info';
  record(log);
  t.equal(lines.length, 1, 'the level is read per request, so changing it at runtime applies');
  t.end();
});

t.test('info lines: at most linesPerSecond a second, the rest summed up by status; the ring keeps all', async (t) => {
  const { logger, lines } = capture();
  const log = new RequestLog({ logger, linesPerSecond: 3 });
  for (let i = 0; i < 10; i++) record(log, { path: `/v1/pets/${i}`, status: i < 8 ? 200 : 404 });
  await new Promise((resolve) => setImmediate(resolve));
  t.same(
    lines.map((l) => l.msg),
    ['GET /v1/pets/0 200 0ms', 'GET /v1/pets/1 200 0ms', 'GET /v1/pets/2 200 0ms'],
  );
  t.equal(log.size, 10, 'every request is in the request log');
  log.flush();
  await new Promise((resolve) => setImmediate(resolve));
  const summary = lines[3];
  t.match(summary, { level: 30, requests_not_shown: 7, statuses: { 200: 5, 404: 2 }, lines_per_second: 3 });
  t.equal(summary.msg, '… 7 more requests in the last second (200 ×5, 404 ×2); one line per request again below 3/s');
  log.flush();
  t.equal(lines.length, 4, 'nothing more to sum up');
});

t.test('info lines: the summary comes when the second ends, without another request', async (t) => {
  const { logger, lines } = capture();
  const log = new RequestLog({ logger, linesPerSecond: 1 });
  record(log);
  record(log);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  t.equal(lines.length, 2);
  t.equal(lines[1].requests_not_shown, 1);
});

t.test('info lines: 0 means a line for every request', async (t) => {
  const { logger, lines } = capture();
  const log = new RequestLog({ logger, linesPerSecond: 0 });
  for (let i = 0; i < 200; i++) record(log);
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(lines.length, 200);
});
