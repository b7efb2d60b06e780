// `mock bench-pipeline` end to end against a raw TCP server that holds requests to see the depth.
import t from 'tap';
import { runMock } from '../helpers/cli.js';
import { pipelineServer } from './servers.js';

const pipeline = (...args) => runMock(['bench-pipeline', '--workers', '1', '--json', ...args], { timeoutMs: 60_000 });

t.test('--pipeline-depth requests are in flight on each connection; statuses are counted off the stream', async (t) => {
  const { url, seen } = await pipelineServer(t, { hold: 8 });
  const res = await pipeline('--target', `${url}/ingest`, '--connections', '2', '--pipeline-depth', '8', '--duration', '0.5', '--body-size', '512B');
  t.equal(res.code, 0, res.stderr);
  t.equal(seen.sockets.length, 2, 'two connections');
  t.equal(seen.maxBatch, 8, 'the server held 8 requests of one socket before answering any');
  for (const socket of seen.sockets) t.ok(socket.requests > 8, `${socket.requests} requests on one socket`);
  const r = seen.requests[0];
  t.equal(r.method, 'POST');
  t.equal(r.url, '/ingest');
  t.equal(r.headers['content-type'], 'application/json');
  t.equal(r.body.length, 512);
  t.match(JSON.parse(r.body.toString()), { data: String });

  const report = JSON.parse(res.stdout);
  const target = report.targets[0];
  t.equal(report.command, 'bench-pipeline');
  t.ok(target.statuses['200'] > 0 && target.statuses['404'] > 0, JSON.stringify(target.statuses));
  t.ok(Math.abs(target.statuses['200'] - target.statuses['404']) <= 16, 'Content-Length and chunked answers both parsed');
  t.ok(target.responses <= seen.sent[200] + seen.sent[404], 'no response counted that was not sent');
  t.ok(target.responses >= (seen.sent[200] + seen.sent[404]) - 2 * 8, 'at most the last window unread');
  t.same(target.networkErrors, {});
  t.equal(target.serverErrors, 0);
});

t.test('xml, urlencoded and multipart bodies of the exact size', async (t) => {
  const { url, seen } = await pipelineServer(t, { hold: 4 });
  for (const [kind, type, size, bytes, check] of [
    ['xml', 'application/xml', '2KB', 2048, /^<\?xml version="1\.0" encoding="UTF-8"\?><data>\w+<\/data>$/],
    ['urlencoded', 'application/x-www-form-urlencoded', '100B', 100, /^data=\w+$/],
    ['multipart', 'multipart/form-data; boundary=', '1KB', 1024, /^--(\S+)\r\nContent-Disposition: form-data; name="data"\r\n\r\n\w+\r\n--\1--\r\n$/],
  ]) {
    seen.requests.length = 0;
    const res = await pipeline('--target', url, '--connections', '1', '--pipeline-depth', '4', '--duration', '0.5', '--content-type', kind, '--body-size', size);
    t.equal(res.code, 0, res.stderr);
    const r = seen.requests[0];
    t.ok(r.headers['content-type'].startsWith(type), `${kind}: ${r.headers['content-type']}`);
    t.equal(r.body.length, bytes, `${kind}: ${bytes} bytes`);
    t.match(r.body.toString(), check);
  }
});

t.test('https targets are refused', async (t) => {
  const res = await runMock(['bench-pipeline', '--target', 'https://127.0.0.1:1']);
  t.equal(res.code, 1);
  t.match(res.stderr, /pipelining runs over plain http:\/\/ only/);
});
