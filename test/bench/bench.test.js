// `mock bench` end to end: the real CLI against node:http servers that count what they receive.
import t from 'tap';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bin, root, runMock, tmpdir } from '../helpers/cli.js';
import { countingServer } from './servers.js';
import { plainNode } from '../helpers/plain-node.js';

const spec = path.join(root, 'examples/petstore.yaml');
const bench = (url, ...args) => runMock(['bench', '--spec', spec, '--target', url, '--workers', '1', ...args], { timeoutMs: 60_000 });
const json = (t, res) => {
  t.equal(res.code, 0, `exit 0: ${res.stderr}`);
  return JSON.parse(res.stdout);
};

t.test('every operation of the description is sent, and --output has the report', async (t) => {
  const { url, seen } = await countingServer(t);
  const out = path.join(tmpdir(), 'report.json');
  const res = await bench(url, '--duration', '1', '--vus', '5', '--output', out);
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, /requests\s+[\d,]+ \([\d,]+ req\/s\)/, 'a text summary on stdout');
  const routes = Object.keys(seen.byRoute).map((route) => route.replace(/\/v1\/pets\/[^/]+$/, '/v1/pets/{petId}'));
  t.same([...new Set(routes)].sort(), ['DELETE /v1/pets/{petId}', 'GET /v1/health', 'GET /v1/pets', 'GET /v1/pets/{petId}', 'POST /v1/pets'], 'each operation seen');
  const post = seen.requests.find((r) => r.method === 'POST');
  t.equal(post.headers['content-type'], 'application/json');
  const pet = JSON.parse(post.body);
  t.ok(typeof pet.name === 'string' && ['cat', 'dog', 'bird'].includes(pet.kind), 'a valid NewPet body');
  t.match(seen.requests.find((r) => r.path.startsWith('/v1/pets/')).path, /^\/v1\/pets\/\d+$/, 'path parameter filled in');

  const report = JSON.parse(readFileSync(out, 'utf8'));
  t.equal(report.command, 'bench');
  t.equal(report.passed, true);
  t.equal(report.interrupted, false);
  t.match(report.settings, { scenario: 'constant', vus: 5, workers: 1, operations: 5 });
  const [target] = report.targets;
  t.equal(target.target, url);
  t.equal(target.responses, seen.total, 'every response counted once');
  t.ok(target.reqPerSec > 0);
  t.ok(target.durationSeconds >= 0.9 && target.durationSeconds < 1.5, `sent for about 1 s (${target.durationSeconds})`);
  t.match(target.latencyMs, { min: Number, mean: Number, p50: Number, p95: Number, p99: Number, max: Number });
  t.ok(target.latencyMs.p50 <= target.latencyMs.p95 && target.latencyMs.p95 <= target.latencyMs.p99 && target.latencyMs.p99 <= target.latencyMs.max);
  t.same(target.statuses, { 200: seen.total });
  t.equal(target.errorRate, 0);
  t.equal(target.operations.length, 5);
  for (const op of target.operations) {
    t.match(op, { operation: String, method: String, path: String, responses: Number, statuses: Object, networkErrors: Object, latencyMs: Object });
    t.ok(op.responses > 0, `${op.operation} answered`);
  }
  t.equal(target.operations.reduce((sum, op) => sum + op.responses, 0), target.responses);
  t.same(report.summary.statuses, target.statuses);
});

t.test('--rps caps the request rate', async (t) => {
  const { url, seen } = await countingServer(t);
  const report = json(t, await bench(url, '--duration', '3', '--vus', '10', '--rps', '200', '--json'));
  t.ok(seen.total >= 450 && seen.total <= 750, `about 600 requests in 3 s at 200/s, got ${seen.total}`);
  t.ok(report.targets[0].reqPerSec >= 150 && report.targets[0].reqPerSec <= 250, `reported ${report.targets[0].reqPerSec} req/s`);
});

// A 20 ms answer makes the rate follow the number of active virtual users.
const thirds = (seen, seconds) => {
  const third = (seconds * 1000) / 3;
  const counts = [0, 0, 0];
  for (const r of seen.requests) if (r.at < seconds * 1000) counts[Math.min(2, Math.floor(r.at / third))]++;
  return counts;
};

t.test('ramp-up sends fewer requests in the first third than in the last', async (t) => {
  const { url, seen } = await countingServer(t, { delayMs: 20 });
  const report = json(t, await bench(url, '--duration', '3', '--vus', '10', '--scenario', 'ramp-up', '--operations', 'health', '--json'));
  const [first, , last] = thirds(seen, 3);
  t.ok(last > first * 2, `first third ${first}, last third ${last}`);
  const timeline = report.targets[0].timeline;
  t.ok(timeline.length >= 3, 'a per-second timeline');
  // the last second may be the wind-down after --duration, with no VU left: compare with the peak
  t.ok(timeline[0].active < Math.max(...timeline.map((s) => s.active)), `active VUs grow: ${timeline.map((s) => s.active)}`);
});

t.test('spike sends most in the middle', async (t) => {
  const { url, seen } = await countingServer(t, { delayMs: 20 });
  json(t, await bench(url, '--duration', '3', '--vus', '10', '--scenario', 'spike', '--operations', 'health', '--json'));
  // 10% (1 VU) until 1.2 s, all 10 from 1.2 s to 1.8 s
  const before = seen.requests.filter((r) => r.at < 1100).length / 1.1;
  const during = seen.requests.filter((r) => r.at >= 1300 && r.at < 1750).length / 0.45;
  t.ok(during > before * 3, `${before.toFixed(0)}/s before the spike, ${during.toFixed(0)}/s during`);
});

t.test('--generate-only writes the plan without sending', async (t) => {
  const { url, seen } = await countingServer(t);
  const file = path.join(tmpdir(), 'plan.jsonl');
  const dir = t.testdir({
    'a.yaml': 'openapi: 3.0.3\ninfo: {title: a, version: "1"}\npaths:\n  /a:\n    get:\n      responses: {"200": {description: ok}}\n',
    'b.json': JSON.stringify({ openapi: '3.0.3', info: { title: 'b', version: '1' }, paths: { '/a': { put: { responses: { 204: { description: 'ok' } } } } } }),
    'notes.txt': 'not a description',
  });
  // plans only, nothing sent: side by side
  const [res, some, both, unknown] = await Promise.all([
    runMock(['bench', '--spec', spec, '--generate-only', '--target', url]),
    runMock(['bench', '--spec', spec, '--generate-only', '--operations', 'createPet,GET /pets/{petId}', '--base-path', '/api', '--output', file]),
    runMock(['bench', '--spec-dir', dir, '--generate-only']),
    runMock(['bench', '--spec', spec, '--generate-only', '--operations', 'nope']),
  ]);
  t.equal(res.code, 0, res.stderr);
  const lines = res.stdout.trim().split('\n').map((line) => JSON.parse(line));
  t.equal(lines.length, 5 * 8, 'eight requests per operation');
  t.same([...new Set(lines.map((l) => l.operation))].sort(), ['DELETE /v1/pets/{petId}', 'GET /v1/health', 'GET /v1/pets', 'GET /v1/pets/{petId}', 'POST /v1/pets']);
  for (const line of lines) {
    t.match(line, { method: String, path: /^\/v1\//, headers: Object });
    t.equal(line.url, url + line.path);
  }
  t.ok(lines.filter((l) => l.method === 'POST').every((l) => typeof JSON.parse(l.body).name === 'string'), 'POST bodies are JSON');
  t.equal(seen.total, 0, 'nothing sent');

  t.equal(some.code, 0, some.stderr);
  const picked = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  t.same([...new Set(picked.map((l) => l.operation))].sort(), ['GET /api/pets/{petId}', 'POST /api/pets'], '--operations by operationId and by METHOD /path; --base-path');

  t.equal(both.code, 0, both.stderr);
  t.same([...new Set(both.stdout.trim().split('\n').map((line) => JSON.parse(line).operation))], ['GET /a', 'PUT /a'], '--spec-dir: every description of the folder');

  t.equal(unknown.code, 1, 'unknown operation: exit 1');
  t.match(unknown.stderr, /--operations: no operation "nope".*listPets/);
});

t.test('--max-error-rate: exit 1 when the server answers 500', async (t) => {
  const { url } = await countingServer(t, { status: () => 500 });
  const out = path.join(tmpdir(), 'report.json');
  // these runs check how errors are counted, not for how long: half a second of load each
  const res = await bench(url, '--duration', '500ms', '--max-error-rate', '0.1', '--output', out);
  t.equal(res.code, 1, 'exit 1');
  t.match(res.stderr, /error rate above --max-error-rate 0\.1/);
  const report = JSON.parse(readFileSync(out, 'utf8'));
  t.equal(report.passed, false);
  t.equal(report.targets[0].errorRate, 1);
  t.equal(report.targets[0].serverErrors, report.targets[0].responses);

  const { url: half } = await countingServer(t, { status: (req) => (req.method === 'GET' ? 200 : 503) });
  const tolerant = await bench(half, '--duration', '500ms', '--max-error-rate', '0.9', '--json');
  t.equal(tolerant.code, 0, 'below the limit: exit 0');
  const ok = JSON.parse(tolerant.stdout);
  t.ok(ok.targets[0].errorRate > 0.2 && ok.targets[0].errorRate < 0.6, `POST and DELETE fail: ${ok.targets[0].errorRate}`);
  const del = ok.targets[0].operations.find((op) => op.method === 'DELETE');
  t.equal(del.serverErrors, del.responses, 'errors per operation');
});

t.test('network errors count as errors', async (t) => {
  const { url } = await countingServer(t);
  const dead = url.replace(/:\d+$/, ':1');
  const res = await bench(dead, '--duration', '500ms', '--vus', '2', '--max-error-rate', '0.5', '--json');
  t.equal(res.code, 1);
  const report = JSON.parse(res.stdout);
  t.ok(report.targets[0].networkErrors.ECONNREFUSED > 0, JSON.stringify(report.targets[0].networkErrors));
  t.equal(report.targets[0].responses, 0);
});

t.test('--auth, --headers, --targets-file, --rounds and --keep-rounds', async (t) => {
  const a = await countingServer(t);
  const b = await countingServer(t);
  const dir = tmpdir();
  const file = path.join(dir, 'targets.txt');
  writeFileSync(file, `# two targets\n${a.url}\n\n${b.url}/prefix   # with a path\n`);
  const res = await runMock(
    ['bench', '--spec', spec, '--targets-file', file, '--operations', 'health', '--duration', '500ms', '--vus', '2', '--workers', '1', '--rounds', '2', '--keep-rounds', '--auth', 'basic:user:secret', '--headers', 'X-One: 1', '--headers', '{"X-Two":"2"}', '--json'],
    { timeoutMs: 60_000 },
  );
  const report = json(t, res);
  t.equal(report.targets.length, 2);
  t.same(report.targets.map((x) => x.target), [a.url, `${b.url}/prefix`]);
  t.ok(a.seen.total > 0 && b.seen.total > 0, 'both targets loaded');
  t.same(Object.keys(b.seen.byRoute), ['GET /prefix/v1/health'], 'the target path goes first');
  const headers = a.seen.requests[0].headers;
  t.equal(headers.authorization, `Basic ${Buffer.from('user:secret').toString('base64')}`);
  t.equal(headers['x-one'], '1');
  t.equal(headers['x-two'], '2');
  t.equal(report.targets[0].rounds, 2);
  t.equal(report.rounds.length, 2);
  t.equal(report.rounds[0].targets.length, 2);
  t.equal(report.rounds[0].targets[0].responses + report.rounds[1].targets[0].responses, report.targets[0].responses, 'rounds add up');
  t.equal(report.targets[0].responses, a.seen.total);
});

t.test('--cps caps new connections; --repeat-until repeats rounds until the time is up', async (t) => {
  const { url, seen } = await countingServer(t, { close: true });
  const report = json(t, await bench(url, '--operations', 'health', '--vus', '10', '--cps', '50', '--duration', '1', '--repeat-until', '2500ms', '--json'));
  const [target] = report.targets;
  t.ok(target.rounds >= 2 && target.rounds <= 3, `${target.rounds} rounds in 2.5 s of 1 s rounds`);
  const perSecond = seen.connections / target.durationSeconds;
  t.ok(perSecond > 30 && perSecond < 70, `${seen.connections} connections in ${target.durationSeconds} s at --cps 50`);
  t.equal(target.connections, seen.connections, 'connections counted');
  t.equal(target.errors, 0, 'Connection: close is not an error');
});

t.test('Ctrl-C stops the run and still reports', async (t) => {
  const { url, seen } = await countingServer(t);
  const child = spawn(...plainNode([bin, 'bench', '--spec', spec, '--target', url, '--duration', '60', '--vus', '2', '--workers', '1', '--json']), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const started = Date.now();
  while (seen.total === 0 && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 300));
  child.kill('SIGINT');
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.ok(Date.now() - started < 40_000, 'stopped long before --duration');
  t.equal(code, 130);
  const report = JSON.parse(stdout);
  t.equal(report.interrupted, true);
  t.ok(report.targets[0].responses > 0);
});

t.test('bad flags give one clear line', async (t) => {
  // refused before sending anything: side by side
  const [noTarget, duration, rate, noSpec] = await Promise.all([
    runMock(['bench', '--spec', spec, '--duration', '1']),
    runMock(['bench', '--spec', spec, '--target', 'http://127.0.0.1:1', '--duration', 'soon']),
    runMock(['bench', '--spec', spec, '--target', 'http://127.0.0.1:1', '--max-error-rate', '5']),
    runMock(['bench', '--target', 'http://127.0.0.1:1']),
  ]);
  t.equal(noTarget.code, 1);
  t.match(noTarget.stderr, /no target: pass --target <url> or --targets-file <file>/);
  t.match(duration.stderr, /--duration: not a duration: "soon"/);
  t.match(rate.stderr, /--max-error-rate: expected a fraction from 0 to 1/);
  t.match(noSpec.stderr, /no API description: pass --spec/);
});
