// `mock bench-chunked` end to end against a raw TCP server that reads the chunk framing itself.
import t from 'tap';
import path from 'node:path';
import { root, runMock } from '../helpers/cli.js';
import { chunkedServer } from './servers.js';

const spec = path.join(root, 'examples/petstore.yaml');
const chunked = (...args) => runMock(['bench-chunked', '--workers', '1', '--json', ...args], { timeoutMs: 60_000 });

t.test('bodies are really chunked, in chunks of --chunk-size-bytes, exactly --total-size-bytes long', async (t) => {
  const { url, seen } = await chunkedServer(t);
  const res = await chunked('--target', `${url}/upload`, '--duration', '0.5', '--concurrency', '3', '--chunk-size-bytes', '1000', '--total-size-bytes', '4500', '--method', 'PUT', '--header', 'X-Test: yes');
  t.equal(res.code, 0, res.stderr);
  t.ok(seen.requests.length > 3, `${seen.requests.length} requests`);
  for (const r of seen.requests.slice(0, 20)) {
    t.equal(r.method, 'PUT');
    t.equal(r.url, '/upload');
    t.equal(r.headers['transfer-encoding'], 'chunked');
    t.notOk('content-length' in r.headers, 'no Content-Length with a chunked body');
    t.equal(r.headers['x-test'], 'yes');
    t.same(r.chunkSizes, [1000, 1000, 1000, 1000, 500]);
    t.equal(r.body.length, 4500);
  }
  const report = JSON.parse(res.stdout);
  t.equal(report.command, 'bench-chunked');
  t.equal(report.targets[0].responses, seen.requests.length, 'every response counted');
  t.same(report.targets[0].statuses, { 200: seen.requests.length });
  t.match(report.targets[0].latencyMs, { p50: Number, p95: Number, p99: Number });
  t.match(report.settings, { chunkSizeBytes: 1000, totalSizeBytes: 4500, chunksPerRequest: 5, concurrency: 3 });
});

t.test('with --spec: a JSON body from the request schema, padded to the exact size, still valid JSON', async (t) => {
  const { url, seen } = await chunkedServer(t);
  const res = await chunked('--target', url, '--spec', spec, '--duration', '0.5', '--concurrency', '2', '--total-size-bytes', '3000', '--chunk-size-bytes', '512');
  t.equal(res.code, 0, res.stderr);
  t.ok(seen.requests.length > 0);
  for (const r of seen.requests.slice(0, 10)) {
    t.equal(r.url, '/v1/pets', 'the operation with a JSON body: createPet');
    t.equal(r.method, 'POST');
    t.equal(r.headers['content-type'], 'application/json');
    t.equal(r.body.length, 3000);
    const pet = JSON.parse(r.body.toString());
    t.ok(typeof pet.name === 'string' && ['cat', 'dog', 'bird'].includes(pet.kind), 'a NewPet');
    t.equal(r.chunkSizes.length, Math.ceil(3000 / 512));
  }
});

t.test('--chunk-interval-ms spreads the chunks out', async (t) => {
  const { url, seen } = await chunkedServer(t);
  const res = await chunked('--target', url, '--duration', '1', '--concurrency', '1', '--chunk-size-bytes', '100', '--total-size-bytes', '500', '--chunk-interval-ms', '40', '--header', 'Content-Type: application/json');
  t.equal(res.code, 0, res.stderr);
  const report = JSON.parse(res.stdout);
  // five chunks, four pauses of 40 ms: no request can be faster than 160 ms
  t.ok(report.targets[0].latencyMs.min >= 155, `min latency ${report.targets[0].latencyMs.min} ms`);
  t.ok(seen.requests.length >= 2 && seen.requests.length <= 7, `${seen.requests.length} requests in 1 s`);
  const body = seen.requests[0].body.toString();
  t.equal(body.length, 500);
  t.match(JSON.parse(body), { data: String }, 'a JSON Content-Type without --spec still gets valid JSON');
});

t.test('a --total-size-bytes too small for the generated JSON is a clear error', async (t) => {
  const res = await chunked('--target', 'http://127.0.0.1:1', '--spec', spec, '--total-size-bytes', '5');
  t.equal(res.code, 1);
  t.match(res.stderr, /--total-size-bytes: 5 bytes is smaller than the generated JSON body/);
});
