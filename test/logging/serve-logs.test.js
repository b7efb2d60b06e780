// `mock serve` logging: logging.level/format/file, one request log line per handled request.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runMock, tmpdir } from '../helpers/cli.js';
import { jsonLines, requestLines, serveWith, spec, until } from './helpers.js';

// The tests run side by side, up to three at a time (each has a server and a folder of its own),
// but for two that run alone: the first, which makes the build the others share, and the rate-limit
// test, which counts what arrives per second.
t.jobs = 3;
const alone = { buffered: false };

t.test('json: every request is one line carrying the request log entry', alone, async (t) => {
  const server = await serveWith('logging:\n  format: json\nhttp:\n  max_body_bytes: 64\n');
  t.teardown(() => server.stop());
  const ok = await fetch(`${server.url}/v1/pets/1`, { headers: { 'user-agent': 'tap-logging', 'x-trace': 'abc' } });
  const body = await ok.text();
  const created = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Kitty","kind":"cat"}' });
  await created.text();
  const missing = await fetch(`${server.url}/nowhere?x=1`);
  await missing.text();
  const head = await fetch(`${server.url}/v1/pets/1`, { method: 'HEAD' });
  const tooLarge = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(64) }) });
  await tooLarge.text();
  t.equal(tooLarge.status, 413);

  const lines = await until(() => {
    const found = requestLines(server.stdout);
    return found.length >= 5 && found;
  }, 10_000, 'five request lines');
  t.equal(lines.length, 5, 'one line per request');
  const [get, post, notFound, headLine, rejected] = lines;

  t.equal(get.level, 30, 'info');
  t.match(get.msg, /^GET \/v1\/pets\/1 200 \d+ms$/);
  t.same(Object.keys(get.request).sort(), [
    'client_ip', 'error_message', 'headers', 'id', 'method', 'path', 'query', 'response_size_bytes', 'response_time_ms', 'route', 'source', 'status_code', 'timestamp', 'user_agent',
  ], "the spec's fields, and HTTP's route and query");
  t.match(get.request, {
    id: /^[0-9a-f]{6}-[0-9a-z]+$/,
    method: 'GET',
    path: '/v1/pets/1',
    status_code: 200,
    client_ip: '127.0.0.1',
    user_agent: 'tap-logging',
    headers: { 'x-trace': 'abc', 'user-agent': 'tap-logging' },
    response_size_bytes: Buffer.byteLength(body),
    error_message: null,
  });
  t.ok(Number.isInteger(get.request.response_time_ms) && get.request.response_time_ms >= 0, 'integer response time');
  t.ok(Math.abs(Date.parse(get.request.timestamp) - Date.now()) < 60_000, 'ISO timestamp of now');

  t.match(post.request, { method: 'POST', path: '/v1/pets', status_code: 201, headers: { 'content-type': 'application/json' } });
  t.match(notFound.request, { method: 'GET', path: '/nowhere', status_code: 404 });
  t.equal(notFound.msg.startsWith('GET /nowhere 404 '), true, 'the path is logged without the query string');
  t.equal(head.status, 200);
  t.match(headLine.request, { method: 'HEAD', status_code: 200, response_size_bytes: 0 });
  t.match(rejected.request, { status_code: 413, error_message: /request body exceeds 64 bytes/, error: { code: 'MOCK_ERR_PAYLOAD_TOO_LARGE' } }, 'a refused request carries why');
  t.equal(new Set(lines.map((l) => l.request.id)).size, 5, 'unique ids');
});

t.test('text: human-readable lines, no JSON', async (t) => {
  const server = await serveWith('logging:\n  format: text\n');
  const res = await fetch(`${server.url}/v1/pets/1`);
  await res.text();
  await until(() => /GET \/v1\/pets\/1 200/.test(server.stdout), 10_000, 'the request line');
  t.equal(await server.stop(), 0);
  const lines = server.stdout.split('\n').filter(Boolean);
  t.match(server.stdout, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/pets\/1 200 \d+ms$/m);
  t.match(server.stdout, /INFO: shutting down/, 'flushed on shutdown');
  t.notOk(lines.some((line) => /^\s*[{[]"/.test(line) || line.startsWith('{')), `no raw JSON:\n${server.stdout}`);
  t.notMatch(server.stdout, /\u001b\[/, 'no colours when stdout is not a terminal');
});

t.test('level: warn hides request logs', async (t) => {
  const server = await serveWith('logging:\n  format: json\n', { level: 'warn' });
  for (let i = 0; i < 3; i++) await (await fetch(`${server.url}/v1/pets/1`)).text();
  t.equal(await server.stop(), 0);
  t.same(requestLines(server.stdout), []);
  t.notOk(jsonLines(server.stdout).some((line) => line.level < 40), 'nothing below warn');
});

t.test('file: logs go to logging.file (relative to mock.yaml), not stdout, all of them written by shutdown', async (t) => {
  const server = await serveWith('logging:\n  format: json\n  file: logs/mock.log\n  request_lines_per_second: 0\n');
  const n = 200;
  await Promise.all(Array.from({ length: n }, async () => (await fetch(`${server.url}/v1/pets/1`)).text()));
  t.equal(await server.stop(), 0, 'stopped at once, before the worker had time to catch up');
  const file = path.join(server.dir, 'logs/mock.log');
  const lines = jsonLines(readFileSync(file, 'utf8'));
  t.equal(lines.filter((line) => line.request).length, n, 'every request line is in the file');
  t.equal(lines.at(-1).msg, 'shutting down (SIGTERM)', 'the last line written before exit');
  t.same(requestLines(server.stdout), [], 'nothing logged to stdout');
  t.match(server.stdout, /serving on/);
});

t.test('request_lines_per_second: past the limit, one line a second sums up the rest', alone, async (t) => {
  const server = await serveWith('logging:\n  format: json\n  request_lines_per_second: 5\n');
  t.teardown(() => server.stop());
  const n = 120;
  await Promise.all(Array.from({ length: n }, async (_, i) => (await fetch(`${server.url}/${i % 4 === 0 ? 'nowhere' : 'v1/pets/1'}`)).text()));
  const summary = await until(() => jsonLines(server.stdout).find((line) => line.requests_not_shown !== undefined), 5_000, 'a summary line');
  const shown = requestLines(server.stdout);
  t.equal(shown.length + summary.requests_not_shown, n, 'every request is either a line or counted in the summary');
  t.ok(shown.length >= 5 && shown.length <= 10, `at most 5 lines a second (${shown.length} in the one or two seconds the burst took)`);
  t.equal(summary.level, 30, 'info');
  t.equal((summary.statuses['200'] ?? 0) + (summary.statuses['404'] ?? 0), summary.requests_not_shown, 'counted by status');
  t.match(summary.msg, /^… \d+ more requests in the last second \(200 ×\d+, 404 ×\d+\); one line per request again below 5\/s$/);

  // below the rate, every request has its line again
  await new Promise((resolve) => setTimeout(resolve, 1100));
  for (let i = 0; i < 3; i++) await (await fetch(`${server.url}/v1/pets/${i}`)).text();
  const trickle = () => requestLines(server.stdout).filter((line) => line.request.path === '/v1/pets/0' || line.request.path === '/v1/pets/2');
  await until(() => trickle().length === 2, 5_000, 'lines of the trickle');
  t.pass('a trickle is logged request by request');
});

t.test('file: text format writes readable lines with the date', async (t) => {
  const server = await serveWith('logging:\n  format: text\n  file: mock.log\n');
  await (await fetch(`${server.url}/v1/pets/2`)).text();
  t.equal(await server.stop(), 0);
  const text = readFileSync(path.join(server.dir, 'mock.log'), 'utf8');
  t.match(text, /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/pets\/2 \d{3} \d+ms$/m);
  t.notMatch(text, /^\{/m);
  t.notMatch(text, /\u001b\[/, 'no colours in files');
});

t.test('file: stderr is accepted as a stream name', async (t) => {
  const server = await serveWith('logging:\n  format: json\n  file: stderr\n');
  await (await fetch(`${server.url}/v1/pets/1`)).text();
  t.equal(await server.stop(), 0);
  t.equal(requestLines(server.stderr).length, 1);
  t.same(requestLines(server.stdout), []);
  t.notOk(existsSync(path.join(server.dir, 'stderr')), 'not a file named stderr');
});

t.test('file: an unwritable path is one line naming logging.file', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'blocker'), 'a file, not a directory');
  writeFileSync(path.join(dir, 'mock.yaml'), 'logging:\n  file: blocker/mock.log\n');
  const res = await runMock(['serve', '--spec', spec, '--out', tmpdir(), '--http-port', '0'], { cwd: dir, env: { MOCK_LOG_LEVEL: 'info' } });
  t.not(res.code, 0);
  const lines = res.stderr.trim().split('\n');
  t.equal(lines.length, 1, res.stderr);
  t.match(lines[0], /^logging\.file: cannot write .*blocker\/mock\.log \((ENOTDIR|EEXIST)\)/);
});
