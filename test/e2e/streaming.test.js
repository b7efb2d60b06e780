// Streamed answers of sequential media types (docs/streaming.md) through real clients: curl -N,
// Node's fetch reading the body as it arrives, and Chromium's EventSource; on both HTTP backends,
// for an OpenAPI 3.2 description (itemSchema), a 3.0 one (an ordinary schema) and the corpus's
// Docker Engine description (Swagger 2.0: /events as JSON Lines).
import t from 'tap';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { buildOnce, corpus, needsCurl, root, runMock, startMock, tmpdir } from '../helpers/cli.js';
import { runConformance } from '../../dist/src/conformance/index.js';
import { CHROMIUM_MISSING, launchChromium } from '../helpers/chromium.js';

const spec32 = path.join(root, 'examples', 'streaming', 'events-3.2.yaml');
const spec30 = path.join(root, 'test', 'fixtures', 'openapi', 'sse-3.0.yaml');
const docker = path.join(corpus, 'openapi', 'docker-engine.yaml');
const [out32, out30] = await Promise.all([buildOnce(spec32), buildOnce(spec30)]);

const LEVELS = ['debug', 'info', 'warn', 'error'];
const fast = (items) => ({ prefer: `stream-items=${items}, stream-interval=20` });

async function serve(t, spec, out, backend) {
  const server = await startMock(['--spec', spec, '--out', out, '--http-backend', backend]);
  t.teardown(() => server.stop());
  return server;
}

/** SSE events of a text (HTML's parsing, enough for what the mock writes). */
function sseEvents(text) {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = { data: [] };
      for (const line of block.split('\n')) {
        const [, name, value] = /^([a-z]+): ?(.*)$/.exec(line) ?? [];
        if (name === 'data') event.data.push(value);
        else if (name !== undefined) event[name] = value;
      }
      return { ...event, data: event.data.join('\n') };
    });
}

const curlN = (url, headers) =>
  new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-N', '-i', '--max-time', '20', ...headers.flatMap((h) => ['-H', h]), url], (error, stdout) => (error ? reject(error) : resolve(stdout.replace(/\r\n/g, '\n'))));
  });

/** Reads a fetch body as it arrives: the chunks, and whether the first came while the stream was still open. */
async function readStream(res, { stopAfter } = {}) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let firstBeforeEnd;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    firstBeforeEnd ??= true;
    text += decoder.decode(value, { stream: true });
    if (stopAfter !== undefined && stopAfter(text)) {
      await reader.cancel();
      break;
    }
  }
  return { text, firstBeforeEnd: firstBeforeEnd === true };
}

const logLine = (t, value, what) => {
  t.ok(LEVELS.includes(value.level), `${what}: level ${value.level} is one of the enum`);
  t.ok(typeof value.message === 'string' && value.message.length <= 40, `${what}: message is a string of at most 40 characters`);
};

for (const backend of ['uws', 'node']) {
  t.test(`${backend}: OpenAPI 3.2 itemSchema streams`, async (t) => {
    const server = await serve(t, spec32, out32, backend);

    await t.test('curl -N reads an SSE stream of generated events that fit the itemSchema', { skip: needsCurl }, async (t) => {
      const out = await curlN(`${server.url}/events`, ['Prefer: stream-items=3, stream-interval=20']);
      const [head, ...rest] = out.split('\n\n');
      t.match(head, /^HTTP\/1\.1 200/, '200');
      t.match(head, /content-type: text\/event-stream/i, 'text/event-stream');
      t.match(head, /transfer-encoding: chunked/i, 'chunked: no length, the stream is written over time');
      t.match(head, /cache-control: no-cache/i, 'no-cache');
      const events = sseEvents(rest.join('\n\n'));
      t.equal(events.length, 3, 'three events, as Prefer: stream-items=3 asks');
      t.same(
        events.map((e) => e.id),
        ['0', '1', '2'],
        'ids are the sequence numbers',
      );
      for (const e of events) {
        t.equal(e.event, 'tick', 'event: the itemSchema const');
        const data = JSON.parse(e.data);
        t.ok(Number.isInteger(data.seq) && data.seq >= 0, 'data.seq is a non-negative integer');
        t.ok(data.temperature >= -40 && data.temperature <= 60, 'data.temperature is within its bounds');
      }
    });

    await t.test('an SSE client resuming with Last-Event-ID carries on after it', async (t) => {
      const res = await fetch(`${server.url}/events`, { headers: { ...fast(2), 'last-event-id': '7' } });
      const events = sseEvents((await readStream(res)).text);
      t.same(
        events.map((e) => e.id),
        ['8', '9'],
      );
    });

    await t.test("Node's fetch reads JSON Lines as they come", async (t) => {
      const res = await fetch(`${server.url}/logs`, { headers: fast(4) });
      t.equal(res.status, 200);
      t.equal(res.headers.get('content-type'), 'application/jsonl');
      t.equal(res.headers.get('content-length'), null, 'no length');
      const { text, firstBeforeEnd } = await readStream(res);
      t.ok(firstBeforeEnd, 'the first chunk arrives before the body ends');
      const lines = text.split('\n');
      t.equal(lines.pop(), '', 'every line ends with LF');
      t.equal(lines.length, 4, 'four items');
      lines.forEach((line, i) => logLine(t, JSON.parse(line), `line ${i + 1}`));
    });

    await t.test('Accept picks application/x-ndjson or application/json-seq (RFC 7464: RS before each text)', async (t) => {
      const nd = await fetch(`${server.url}/logs`, { headers: { ...fast(2), accept: 'application/x-ndjson' } });
      t.equal(nd.headers.get('content-type'), 'application/x-ndjson');
      t.equal((await nd.text()).split('\n').filter(Boolean).length, 2);
      const seq = await fetch(`${server.url}/logs`, { headers: { ...fast(3), accept: 'application/json-seq' } });
      t.equal(seq.headers.get('content-type'), 'application/json-seq');
      const texts = (await seq.text()).split('\x1e');
      t.equal(texts.shift(), '', 'the body starts with RS');
      t.equal(texts.length, 3);
      texts.forEach((text, i) => {
        t.ok(text.endsWith('\n'), `text ${i + 1} ends with LF`);
        logLine(t, JSON.parse(text), `text ${i + 1}`);
      });
    });

    await t.test('documented items are streamed in turn, from the start again', async (t) => {
      const res = await fetch(`${server.url}/feed?__stream_items=5&__stream_interval=0`);
      const messages = (await res.text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).message);
      t.same(messages, ['starting', 'cache cold', 'ready', 'starting', 'cache cold']);
    });

    await t.test('multipart/mixed: one part per item, the boundary in the content type, the closing delimiter last', async (t) => {
      const res = await fetch(`${server.url}/multi`, { headers: fast(2) });
      const boundary = /boundary=(\S+)/.exec(res.headers.get('content-type'))?.[1];
      t.ok(boundary, res.headers.get('content-type'));
      const body = await res.text();
      t.ok(body.endsWith(`--${boundary}--\r\n`), 'closing delimiter');
      const parts = body.split(`--${boundary}\r\n`).slice(1);
      t.equal(parts.length, 2);
      for (const part of parts) logLine(t, JSON.parse(part.split('\r\n\r\n')[1].split('\r\n')[0]), 'part');
    });

    await t.test('a stream without end (stream-items=forever) runs until the client leaves; the server goes on serving', async (t) => {
      const controller = new AbortController();
      const res = await fetch(`${server.url}/logs?__stream_items=forever&__stream_interval=10`, { signal: controller.signal });
      const { text } = await readStream(res, { stopAfter: (text) => text.split('\n').length > 6 });
      controller.abort();
      t.ok(text.split('\n').length > 6, 'six items read from a stream that had not ended');
      const again = await fetch(`${server.url}/logs`, { headers: fast(1) });
      t.equal((await again.text()).split('\n').filter(Boolean).length, 1, 'the next request is answered');
    });

    await t.test('HEAD gets the head only', async (t) => {
      const res = await fetch(`${server.url}/events`, { method: 'HEAD' });
      t.equal(res.status, 200);
      t.equal(res.headers.get('content-type'), 'text/event-stream');
      t.equal(await res.text(), '');
    });

    await t.test("Chromium's EventSource receives the events", { skip: CHROMIUM_MISSING }, async (t) => {
      const context = await launchChromium();
      t.teardown(() => context.close());
      const page = await context.newPage();
      // a page of the mock's own origin (any answer will do)
      await page.goto(`${server.url}/items?color=red`);
      const got = await page.evaluate(
        () =>
          new Promise((resolve, reject) => {
            const events = [];
            const source = new EventSource('/events?__stream_items=3&__stream_interval=20');
            source.addEventListener('tick', (e) => {
              events.push({ id: e.lastEventId, data: JSON.parse(e.data) });
              if (events.length === 3) {
                source.close();
                resolve(events);
              }
            });
            source.onerror = () => {
              source.close();
              reject(new Error(`EventSource error after ${events.length} events`));
            };
          }),
      );
      t.same(
        got.map((e) => e.id),
        ['0', '1', '2'],
        'three tick events with their ids',
      );
      t.ok(
        got.every((e) => Number.isInteger(e.data.seq)),
        'their data is the JSON of the itemSchema',
      );
    });
  });
}

t.test('OpenAPI 3.0: text/event-stream with an ordinary schema streams that schema as each event data', async (t) => {
  const server = await serve(t, spec30, out30, 'uws');
  const res = await fetch(`${server.url}/ticks`, { headers: fast(3) });
  t.equal(res.headers.get('content-type'), 'text/event-stream');
  const events = sseEvents(await res.text());
  t.equal(events.length, 3);
  for (const e of events) {
    const n = JSON.parse(e.data).n;
    t.ok(Number.isInteger(n) && n >= 1 && n <= 9, `data ${e.data} fits the schema`);
  }
});

t.test('corpus: Docker Engine (Swagger 2.0) GET /events streams EventMessage items as JSON Lines', async (t) => {
  const server = await startMock(['--spec', docker]);
  t.teardown(() => server.stop());
  const res = await fetch(`${server.url}/v1.56/events`, { headers: fast(3) });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/jsonl');
  const lines = (await res.text()).split('\n').filter(Boolean);
  t.equal(lines.length, 3);
  const types = ['builder', 'config', 'container', 'daemon', 'image', 'network', 'node', 'plugin', 'secret', 'service', 'volume'];
  for (const line of lines) {
    const event = JSON.parse(line);
    t.ok(event !== null && typeof event === 'object' && !Array.isArray(event), 'an EventMessage object');
    if (event.Type !== undefined) t.ok(types.includes(event.Type), `Type ${event.Type} is one of the enum`);
  }
  const seq = await fetch(`${server.url}/v1.56/events`, { headers: { ...fast(2), accept: 'application/json-seq' } });
  t.equal((await seq.text()).split('\x1e').length, 3, 'application/json-seq when asked');
});

t.test('mock bench reads streamed answers item by item, before and under load: items, time to the first, sampled items validated', async (t) => {
  const server = await serve(t, spec32, out32, 'uws');
  const cwd = tmpdir();
  const bench = (description, prefer, ...more) =>
    runMock(['bench', '--spec', description, '--target', server.url, '--duration', '1s', '--vus', '2', '--headers', `Prefer: ${prefer}`, ...more], { cwd });
  const streamOf = (report, operation) => report.targets[0].operations.find((o) => o.operation === operation);

  const res = await bench(spec32, 'stream-items=3, stream-interval=10', '--operations', 'GET /events,GET /logs', '--output', 'report.json');
  t.equal(res.code, 0, `the bench ran: ${res.stderr}`);
  const report = JSON.parse(readFileSync(path.join(cwd, 'report.json'), 'utf8'));
  const before = report.streams.find((s) => s.operation === 'GET /logs');
  t.equal(before.items, 3, 'before the load: three items read');
  t.ok(typeof before.firstItemMs === 'number', 'before the load: the time to the first item');
  t.equal(before.mismatch, undefined, 'before the load: every item fits');
  for (const operation of ['GET /events', 'GET /logs']) {
    const op = streamOf(report, operation);
    t.ok(op.stream.answers > 0 && op.stream.answers === op.responses, `${operation}: every answer under load read as a stream`);
    t.ok(op.stream.items >= 3 * (op.stream.answers - op.stream.cut), `${operation}: three items per answer that ended`);
    t.ok(op.stream.firstItemMs.p50 > 0 && op.stream.firstItemMs.p90 >= op.stream.firstItemMs.p50 && op.stream.firstItemMs.p99 >= op.stream.firstItemMs.p90, `${operation}: time to the first item, p50/p90/p99`);
    t.ok(op.stream.itemsChecked > 0, `${operation}: sampled items checked`);
    t.equal(op.stream.mismatches, 0, `${operation}: every sampled item fits`);
  }
  t.ok(report.targets[0].stream.answers > 0 && report.summary.stream.items > 0, 'the target and the summary add the streams up');
  t.match(res.stdout, /1st item +p50 [\d.]+ ms +p90 [\d.]+ ms +p99/, 'the text report gives the time to the first item beside the latency');
  t.match(res.stdout, /streamLogs \(GET \/logs\) +\d+ +\d+ +\d+/, 'and a row per streamed operation');

  // the same answers held against a description whose items must be fatal
  const strict = path.join(tmpdir(), 'strict.yaml');
  writeFileSync(strict, readFileSync(spec32, 'utf8').replace('enum: [debug, info, warn, error]', 'enum: [fatal]'));
  const judged = JSON.parse((await bench(strict, 'stream-items=3, stream-interval=10', '--operations', 'GET /logs', '--json')).stdout);
  t.match(judged.streams[0].mismatch, /^item 1: .*level must be equal to one of the allowed values/, 'before the load: an item that does not fit is reported');
  const logs = streamOf(judged, 'GET /logs').stream;
  t.ok(logs.mismatches > 0 && logs.mismatches === logs.itemsChecked, `under load: every sampled item counted as a mismatch (${logs.mismatches})`);
  t.match(logs.firstMismatch, /^200 application\/jsonl item ".*": .*level must be equal to one of the allowed values/, 'under load: the first mismatch in detail');

  // a stream without end: the run ends on time, the streams still open are cut and their items counted
  const endless = await bench(spec32, 'stream-items=forever, stream-interval=10', '--operations', 'GET /logs', '--json');
  t.equal(endless.code, 0, `the bench against an endless stream ended: ${endless.stderr}`);
  const open = streamOf(JSON.parse(endless.stdout), 'GET /logs');
  t.ok(open.stream.answers > 0 && open.stream.cut === open.stream.answers, 'every endless answer was cut when sending stopped');
  t.equal(open.errors, 0, 'a cut stream is no error');
  t.ok(open.stream.items > open.stream.answers, `items of the endless answers counted (${open.stream.items})`);
  t.ok(open.stream.firstItemMs.p50 > 0, 'and their time to the first item');
});

t.test('the conformance self-test checks streamed answers item by item', async (t) => {
  const cwd = tmpdir();
  writeFileSync(path.join(cwd, 'mock.yaml'), 'http: { streams: { items: 5, interval_ms: 10 } }\n');
  const code = await runConformance({
    specs: [{ source: spec32 }],
    cwd,
    selfTest: true,
    headers: {},
    reportMissedCap: 0,
    validateResponseSchemas: true,
    json: false,
    output: 'report/',
    timeoutMs: 5000,
    write: () => {},
  });
  t.equal(code, 0);
  const report = JSON.parse(readFileSync(path.join(cwd, 'report', 'conformance-report.json'), 'utf8'));
  for (const operation of ['GET /events', 'GET /logs', 'GET /feed', 'GET /multi']) {
    const probe = report.probes.find((p) => p.operation === operation && p.category === 'positive');
    t.equal(probe?.responseCheck?.stream?.items, 5, `${operation}: five items read`);
    t.ok(typeof probe?.responseCheck?.stream?.firstItemMs === 'number', `${operation}: time to the first item`);
    t.equal(probe?.responseCheck?.mismatch, undefined, `${operation}: every item fits`);
  }
});

t.test('an SSE stream pausing longer than 5 s is kept alive with comment heartbeats, and ends after its last item without another pause', async (t) => {
  const server = await serve(t, spec32, out32, 'uws');
  const res = await fetch(`${server.url}/events`, { headers: { prefer: 'stream-items=2, stream-interval=6000' } });
  const { text } = await readStream(res);
  t.match(text, /\n:\n\n/, 'a heartbeat (an SSE comment) in the pause');
  const events = sseEvents(text).filter((e) => e.id !== undefined);
  t.same(
    events.map((e) => e.id),
    ['0', '1'],
    'both events arrive, heartbeats aside',
  );
});

for (const backend of ['uws', 'node']) {
  t.test(`${backend}: a stream open when the server stops ends properly (its closing delimiter written) and the server exits`, async (t) => {
    const server = await serve(t, spec32, out32, backend);
    const res = await fetch(`${server.url}/multi?__stream_items=forever&__stream_interval=50`);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const boundary = /boundary=(\S+)/.exec(res.headers.get('content-type'))[1];
    t.ok(text.endsWith(`--${boundary}--\r\n`), 'the body ends with the closing delimiter: the stream was ended, not cut');
    t.equal(await exited, 0, 'the server exits');
  });
}
