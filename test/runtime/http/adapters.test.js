// runtime/servers/http: both server adapters write answers as their delivery says, seen from raw sockets.
import t from 'tap';
import net from 'node:net';
import { NodeHttpAdapter, UwsHttpAdapter } from '../../../dist/runtime/servers/http/index.js';

const BODY = 'x'.repeat(1000);
const answers = {
  '/normal': { status: 200, headers: [['content-type', 'text/plain']], body: BODY },
  '/close': { status: 200, headers: [], body: 'bye', delivery: { end: 'close' } },
  // as chaos makes them: no status, since nothing is written
  '/drop': { status: 0, headers: [], body: '', delivery: { end: 'drop' } },
  '/reset': { status: 0, headers: [], body: '', delivery: { end: 'reset' } },
  '/truncate': { status: 200, headers: [], body: BODY, delivery: { truncateAfter: 100 } },
  '/throttle': { status: 200, headers: [], body: BODY, delivery: { bytesPerSecond: 2000 } },
  '/hold': { status: 200, headers: [], body: 'late', delivery: { holdMs: 300 } },
  '/async': { status: 201, headers: [], body: 'later' },
  // whatever produced them, fields that could split the response or that node:http refuses
  '/split': {
    status: 302,
    headers: [['location', '/orders/1\r\nX-Injected: yes'], ['x-nul', 'a\u0000b\nc'], ['bad name', 'v'], ['x-wide', '\u0100é'], ['x-ok', 'fine']],
    body: 'moved',
  },
  '/bad-status': { status: 1000, headers: [], body: 'no such status' },
  '/unwritable': { status: 200, headers: [['x-missing', undefined]], body: 'never sent' },
};

function fakeDispatch() {
  const log = [];
  return {
    log,
    maxBodyBytes: 1024,
    answer: (ex) => (ex.path === '/async' ? Promise.resolve(answers[ex.path]) : answers[ex.path]),
    tooLarge: () => ({ status: 413, headers: [], body: 'too large' }),
    written: (ex, answer) => log.push(`${ex.path} ${answer.status}`),
  };
}

/** One request on a fresh connection: what arrived, how the connection ended, when. */
function exchange(port, path, { keepAlive = false } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    // Connection: close lets the answer end the exchange; keep-alive ones wait below
    const connection = keepAlive ? '' : 'Connection: close\r\n';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n${connection}\r\n`));
    let data = Buffer.alloc(0);
    let ending = 'open';
    let firstByteMs;
    socket.on('data', (chunk) => {
      firstByteMs ??= performance.now() - started;
      data = Buffer.concat([data, chunk]);
    });
    socket.on('end', () => (ending = 'fin'));
    socket.on('error', (e) => (ending = e.code));
    const report = () => {
      const text = data.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      resolve({
        raw: data,
        head: split < 0 ? text : text.slice(0, split),
        ending,
        bytes: data.length,
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]) || undefined,
        length: Number(/content-length: (\d+)/i.exec(text)?.[1]),
        connection: /connection: (\S+)/i.exec(text)?.[1]?.toLowerCase(),
        body: split < 0 ? '' : text.slice(split + 4),
        firstByteMs,
        ms: performance.now() - started,
      });
    };
    socket.on('close', report);
    // keep-alive answers leave the connection open: look after a while
    setTimeout(() => {
      socket.destroy();
    }, 1500);
  });
}

for (const [name, Adapter] of [
  ['uWebSockets.js', UwsHttpAdapter],
  ['node:http', NodeHttpAdapter],
]) {
  t.test(name, async (t) => {
    const dispatch = fakeDispatch();
    // a control surface (the admin API) answering with fields that would split its answer
    const control = async () => ({ status: 200, headers: [['x-a', 'a\r\nX-Injected: yes'], ['bad name', 'v'], ['x-wide', 'é']], body: 'control' });
    const adapter = new Adapter({ dispatch, control });
    await adapter.listen('127.0.0.1', 0, '--http-port');
    t.teardown(() => adapter.close());
    t.ok(adapter.listening);
    t.match(adapter.address, /^127\.0\.0\.1:\d+$/);
    const port = adapter.port;

    const normal = await exchange(port, '/normal');
    t.equal(normal.status, 200);
    t.equal(normal.body, BODY, 'normal: the whole body');

    const later = await exchange(port, '/async');
    t.equal(later.status, 201, 'an answer that comes later');
    t.equal(later.body, 'later');

    const close = await exchange(port, '/close', { keepAlive: true });
    t.equal(close.body, 'bye');
    t.equal(close.ending, 'fin', 'close: the server ends the connection after the answer');
    t.ok(close.ms < 1000, 'at once, not on idle timeout');

    const drop = await exchange(port, '/drop');
    t.equal(drop.bytes, 0, 'drop: nothing is written');
    t.equal(drop.ending, 'fin', 'and the connection is closed');

    const reset = await exchange(port, '/reset');
    t.equal(reset.bytes, 0, 'reset: nothing is written');
    // uWebSockets.js exposes no way to abort a connection; node:http sends a TCP reset
    t.equal(reset.ending, name === 'node:http' ? 'ECONNRESET' : 'fin', `reset ends with ${reset.ending}`);

    const truncated = await exchange(port, '/truncate');
    t.equal(truncated.status, 200);
    t.equal(truncated.length, 1000, 'truncate: the head promises the whole body');
    t.equal(truncated.body.length, 100, 'only the first 100 bytes come');
    t.not(truncated.ending, 'open', 'and the connection is cut');

    const throttled = await exchange(port, '/throttle');
    t.equal(throttled.body, BODY, 'throttle: the whole body arrives');
    t.ok(throttled.ms >= 350, `paced at 2000 B/s: 1000 bytes took ${throttled.ms.toFixed(0)} ms`);

    const held = await exchange(port, '/hold');
    t.equal(held.body, 'late');
    t.ok(held.firstByteMs >= 280, `hold: the first byte came after ${held.firstByteMs.toFixed(0)} ms`);

    const split = await exchange(port, '/split');
    const head = split.head.split('\r\n');
    t.equal(split.status, 302);
    t.ok(head.includes('location: /orders/1X-Injected: yes'), 'CR and LF are cut from a value: no header of its own');
    t.notOk(head.some((line) => /^x-injected:/i.test(line)), 'nothing was injected');
    t.ok(head.includes('x-nul: abc'), 'NUL and LF are cut too');
    t.notOk(head.some((line) => line.startsWith('bad name')), 'a field with an invalid name is left out');
    t.ok(split.raw.includes(Buffer.from('x-wide: \u0100é\r\n', 'utf8')), 'characters beyond ASCII go out as UTF-8 bytes');
    t.ok(head.includes('x-ok: fine'));
    t.equal(split.body, 'moved');

    const controlled = await exchange(port, '/__mock/x');
    const controlHead = controlled.head.split('\r\n');
    t.equal(controlled.body, 'control');
    t.ok(controlHead.includes('x-a: aX-Injected: yes'), 'control answers are cleaned the same way');
    t.notOk(controlHead.some((line) => /^(x-injected|bad name)/i.test(line)));
    t.ok(controlled.raw.includes(Buffer.from('x-wide: é\r\n', 'utf8')), 'as UTF-8');

    const badStatus = await exchange(port, '/bad-status');
    t.equal(badStatus.status, 500, 'a status outside 100-599 becomes the catalogue 500');
    t.match(badStatus.body, /MOCK_ERR_INTERNAL/);

    const unwritable = await exchange(port, '/unwritable');
    if (name === 'node:http') {
      t.equal(unwritable.status, 500, 'a field the writer cannot send is a 500 for that request');
      t.match(unwritable.body, /MOCK_ERR_INTERNAL/);
    } else t.not(unwritable.body, 'never sent', 'the answer is not sent');
    t.equal((await exchange(port, '/normal')).status, 200, 'and the server goes on serving');

    t.same(
      dispatch.log.filter((w) => w.startsWith('/normal') || w.startsWith('/hold') || w.startsWith('/drop') || w.startsWith('/bad-status') || w.startsWith('/unwritable')),
      ['/normal 200', '/drop 0', '/hold 200', '/bad-status 500', '/unwritable 500', '/normal 200'],
      'the dispatch hears of every written (or dropped) answer, as written',
    );
  });
}
