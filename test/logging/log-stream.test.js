// runtime/control/logging LogStream: the request log as Server-Sent Events for every client at once
// (GET /__mock/logs/sse): serialised once, written once per event-loop turn, filtered per client,
// capped, and clients that stop reading dropped with a warning.
import t from 'tap';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { LogStream, MAX_UNSENT_BYTES, RequestLog, RequestLogEntry, entryFilter } from '../../dist/runtime/control/logging/index.js';

const ascii = (s) => new TextEncoder().encode(s).buffer;
const record = (log, path = '/v1/pets', method = 'GET') => log.record({ method, path, status: 200, durationMs: 1, client: ascii('127.0.0.1'), headers: {}, responseBytes: 2 });
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A sink that records what it is sent; `unsent` is what it reports as not taken yet. */
function sink(unsent = 0) {
  const s = { writes: [], closed: 0, unsent, send: (text) => (s.writes.push(text), s.unsent), close: () => s.closed++ };
  return s;
}

/** Counts how often entries are serialised. */
function countSerialisations(t) {
  const original = RequestLogEntry.prototype.toJSON;
  const counter = { n: 0 };
  RequestLogEntry.prototype.toJSON = function () {
    counter.n++;
    return original.call(this);
  };
  t.teardown(() => (RequestLogEntry.prototype.toJSON = original));
  return counter;
}

const capture = () => {
  const lines = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, stream), lines };
};

const events = (writes) => writes.join('').split('\n\n').filter((block) => block.startsWith('id: ')).map((block) => JSON.parse(block.split('\ndata: ')[1]));

t.test('each entry is serialised once for every client, and not at all without clients', async (t) => {
  const serialised = countSerialisations(t);
  const log = new RequestLog();
  const stream = new LogStream(log, { maxClients: 10 });
  record(log);
  await turn();
  t.equal(serialised.n, 0, 'no client: no serialisation');

  const clients = [sink(), sink(), sink()];
  const removers = clients.map((c, i) => stream.add(c, i === 2 ? entryFilter({ method: 'POST' }) : undefined, `client ${i}`));
  t.match(clients[0].writes[0], /^retry: 2000\n/, 'each client first gets the reconnect delay');
  record(log, '/a');
  record(log, '/b');
  record(log, '/c', 'POST');
  await turn();
  t.equal(serialised.n, 3, 'three entries, three serialisations for three clients');
  t.same(events(clients[0].writes).map((e) => e.path), ['/a', '/b', '/c']);
  t.equal(clients[0].writes.length, 2, 'the preamble, then one write for the whole turn');
  t.same(events(clients[2].writes).map((e) => e.path), ['/c'], 'a filtered client gets what it asked for');
  t.match(clients[1].writes[1], /^id: [0-9a-f]{6}-\w+\nevent: log\ndata: \{/, 'SSE frames');

  for (const remove of removers) remove();
  t.equal(stream.size, 0);
  record(log);
  await turn();
  t.equal(serialised.n, 3, 'once every client left, entries are not serialised any more');
});

t.test('a client that leaves too much unsent is dropped with one warning; the others stay', async (t) => {
  const { logger, lines } = capture();
  const log = new RequestLog();
  const stream = new LogStream(log, { maxClients: 10, maxUnsentBytes: 1000, logger });
  const reader = sink();
  const stuck = sink();
  let removedStuck = 0;
  stream.add(reader, undefined, 'client 10.0.0.1 ("reader")');
  const remove = stream.add(stuck, undefined, 'client 10.0.0.2 ("stuck")');
  stuck.close = () => {
    stuck.closed++;
    // an adapter calls the remover once the connection is gone
    remove();
    removedStuck++;
  };
  record(log);
  await turn();
  t.equal(stuck.closed, 0, 'within the bound: kept');
  stuck.unsent = 1001;
  record(log);
  await turn();
  t.equal(stuck.closed, 1, 'past it: its connection is dropped');
  t.equal(removedStuck, 1);
  t.equal(stream.size, 1);
  t.equal(lines.length, 1, 'one warning');
  t.match(lines[0], { level: 40, client: 'client 10.0.0.2 ("stuck")', unsent_bytes: 1001 });
  t.match(lines[0].msg, /disconnected client 10\.0\.0\.2 \("stuck"\): it had still not taken 1001 bytes of earlier events \(more than 1000\)/);
  record(log, '/after');
  await turn();
  t.equal(stuck.writes.length, 3, 'nothing more is written to it');
  t.same(events(reader.writes).map((e) => e.path), ['/v1/pets', '/v1/pets', '/after'], 'the reader got everything');
  t.equal(MAX_UNSENT_BYTES, 1024 * 1024, 'the default bound is 1 MiB');
});

t.test('full at maxClients; a place frees when a client leaves', (t) => {
  const stream = new LogStream(new RequestLog(), { maxClients: 2 });
  const remove = stream.add(sink(), undefined, 'a');
  t.notOk(stream.full);
  stream.add(sink(), undefined, 'b');
  t.ok(stream.full);
  t.equal(stream.maxClients, 2);
  remove();
  remove();
  t.notOk(stream.full, 'removing twice frees one place');
  t.equal(stream.size, 1);
  t.end();
});

t.test('clients get a keep-alive comment while it is quiet', async (t) => {
  const stream = new LogStream(new RequestLog(), { maxClients: 2, keepaliveMs: 20 });
  const client = sink();
  const remove = stream.add(client, undefined, 'a');
  await new Promise((resolve) => setTimeout(resolve, 70));
  remove();
  const comments = client.writes.filter((w) => w === ': keep-alive\n\n').length;
  t.ok(comments >= 2, `${comments} keep-alive comments`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(client.writes.filter((w) => w === ': keep-alive\n\n').length, comments, 'none after it left');
});
