// A restart to a smaller build while a delayed request is in flight: the request completes, and
// the hooks of the chain it ran through still run (the bulkhead gives its place back), because an
// exchange keeps its compiled chain instead of looking its route up again after the write.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { restartSettled } from '../helpers/admin.js';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const operation = (name) => `  /${name}:\n    get:\n      responses:\n        "200": {description: ok, content: {application/json: {example: {op: ${name}}}}}\n`;
const describe = (names) => `openapi: 3.0.3\ninfo: {title: Shrinking, version: "1"}\npaths:\n${names.map(operation).join('')}`;

const dir = tmpdir();
const spec = path.join(dir, 'api.yaml');
writeFileSync(spec, describe(['a', 'b', 'c']));
const out = path.join(dir, 'out');
const server = await startMock(['--spec', spec, '--out', out, '--admin-embed']);
t.teardown(() => server.stop());

async function send(method, endpoint, body) {
  const response = await fetch(`${server.url}/__mock/api/${endpoint}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

t.test('the in-flight request completes and its bulkhead place is given back', async (t) => {
  t.equal((await send('PUT', 'chaos/config', { enabled: true, bulkhead: { enabled: true, max_concurrent_requests: 1, max_queue_size: 0 } })).status, 200);
  // The smaller build is made before the request goes out, so the restart only loads and swaps it
  // (tens of ms) instead of building while the request waits: 2 s of latency keeps the request in
  // flight through the restart with a wide margin (it waited 15 s, most of them after the restart).
  writeFileSync(spec, describe(['a']));
  const built = await runMock(['build', '--spec', spec, '--out', out]);
  t.equal(built.code, 0, built.stderr);
  t.equal((await send('POST', 'config/latency', { enabled: true, base_ms: 2000, jitter_ms: 0 })).status, 200);
  let answered = false;
  const inFlight = fetch(`${server.url}/c`).finally(() => (answered = true));
  await until(async () => (await send('GET', 'chaos/stats')).body.data.bulkhead.active === 1, 10_000, 'the request to hold its bulkhead place');
  t.equal((await send('POST', 'servers/restart', { reason: 'smaller build' })).status, 200);
  const settled = await restartSettled(server.url);
  t.equal(settled.success, true, `the restart succeeded: ${settled.error}`);
  t.equal((await send('GET', 'routes')).body.data.length, 1, 'the new build has one route');
  t.equal(answered, false, 'the request is still in flight when the restart completes');
  const answer = await inFlight;
  t.equal(answer.status, 200, 'the request that was in flight is answered');
  t.same(await answer.json(), { op: 'c' }, 'by the build it was routed in');
  t.equal((await send('GET', 'chaos/stats')).body.data.bulkhead.active, 0, 'its bulkhead place was given back');
  await send('POST', 'config/latency', { enabled: false });
  const next = await fetch(`${server.url}/a`);
  t.equal(next.status, 200, 'the next request gets the place (max_concurrent_requests: 1, no queue)');
  t.notMatch(server.stdout + server.stderr, /TypeError|Cannot read properties/, 'nothing threw after the write');
});
