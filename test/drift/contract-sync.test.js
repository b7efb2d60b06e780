// mock contract-sync against a local HTTP server with ETags: conditional fetches, the compare
// report, --fail-on keeping the local file, atomic replacement, and one-line errors (exit 2).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import t from 'tap';
import { parse, stringify } from 'yaml';
import { setTimeout as sleep } from 'node:timers/promises';
import { corpus, runMock, startCommand } from '../helpers/cli.js';

const petstore = readFileSync(path.join(corpus, 'openapi', 'oai-v3.0-petstore.yaml'), 'utf8');

/** Serves `server.body` at /openapi.yaml with an ETag, answering 304 to a matching If-None-Match; /status/N answers N. */
async function descriptionServer(t) {
  const state = { body: petstore, requests: [] };
  const server = http.createServer((req, res) => {
    state.requests.push({ url: req.url, ifNoneMatch: req.headers['if-none-match'] });
    if (req.url === '/huge') return res.writeHead(200, { 'content-length': String(50 * 1024 * 1024 + 1) }).end();
    if (req.url === '/silent') return; // never answers
    const status = /^\/status\/(\d+)$/.exec(req.url);
    if (status) return res.writeHead(Number(status[1])).end('nope');
    const etag = `"${createHash('sha256').update(state.body).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { etag, 'content-type': 'application/yaml' }).end(state.body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${server.address().port}`;
  return { state, base, url: `${base}/openapi.yaml` };
}

const sync = (dir, url, ...args) => runMock(['contract-sync', '--url', url, '--to', 'api.yaml', ...args], { cwd: dir });

const withoutPet = () => {
  const doc = parse(petstore);
  delete doc.paths['/pets/{petId}'];
  return stringify(doc);
};
const withConflict = () => {
  const doc = parse(petstore);
  doc.paths['/pets'].post.responses['409'] = { description: 'taken' };
  return stringify(doc);
};
const leftovers = (dir) => readdirSync(dir).filter((name) => name.startsWith('.'));

t.test('first sync writes the file and its state; the second gets 304 and writes nothing', async (t) => {
  const { state, url } = await descriptionServer(t);
  const dir = t.testdir({});
  const first = await sync(dir, url);
  t.equal(first.code, 0, first.stderr);
  t.equal(readFileSync(path.join(dir, 'api.yaml'), 'utf8'), petstore);
  const saved = JSON.parse(readFileSync(path.join(dir, 'api.yaml.sync.json'), 'utf8'));
  t.equal(saved.url, url);
  t.match(saved.etag, /^"[0-9a-f]{16}"$/);
  t.match(first.stdout, /api\.yaml: created from http:\/\/127\.0\.0\.1:\d+\/openapi\.yaml/);

  const before = readFileSync(path.join(dir, 'api.yaml.sync.json'), 'utf8');
  const second = await sync(dir, url);
  t.equal(second.code, 0, second.stderr);
  t.equal(state.requests.at(-1).ifNoneMatch, saved.etag, 'the stored ETag is sent');
  t.match(second.stdout, 'api.yaml: unchanged');
  t.equal(readFileSync(path.join(dir, 'api.yaml.sync.json'), 'utf8'), before, 'the state is not rewritten');
  t.same(leftovers(dir), []);
});

t.test('a breaking change: the report, --fail-on error exits 1 and keeps the local file; --force replaces it', async (t) => {
  const { state, url } = await descriptionServer(t);
  const dir = t.testdir({});
  t.equal((await sync(dir, url)).code, 0);
  state.body = withoutPet();

  const gated = await sync(dir, url, '--fail-on', 'error');
  t.equal(gated.code, 1, gated.stderr);
  t.match(gated.stdout, /^api\.yaml → http:\/\/127\.0\.0\.1:\d+\/openapi\.yaml: 1 change: 1 breaking/);
  t.match(gated.stdout, /error +path-removed +\/pets\/\{petId\}/);
  t.match(gated.stdout, 'api.yaml: kept: a change reaches --fail-on error (pass --force to replace it anyway)');
  t.equal(readFileSync(path.join(dir, 'api.yaml'), 'utf8'), petstore, 'the local file is left as it was');

  const again = await sync(dir, url, '--fail-on', 'error');
  t.equal(again.code, 1, 'the gate fails again: the state was not advanced');
  t.equal(state.requests.at(-1).ifNoneMatch, JSON.parse(readFileSync(path.join(dir, 'api.yaml.sync.json'), 'utf8')).etag);

  const json = await sync(dir, url, '--fail-on', 'error', '--force', '--format', 'json');
  t.equal(json.code, 1, 'still exit 1 with --force');
  t.same(JSON.parse(json.stdout).summary, { error: 1, warning: 0, info: 0 }, 'json stdout holds only the report');
  t.match(json.stderr, 'api.yaml: updated from');
  t.equal(readFileSync(path.join(dir, 'api.yaml'), 'utf8'), state.body, 'replaced with --force');
  t.same(leftovers(dir), []);
});

t.test('a safe change replaces the file, exit 0 with --fail-on error', async (t) => {
  const { state, url } = await descriptionServer(t);
  const dir = t.testdir({});
  t.equal((await sync(dir, url)).code, 0);
  state.body = withConflict();
  const { code, stdout, stderr } = await sync(dir, url, '--fail-on', 'error');
  t.equal(code, 0, stderr);
  t.match(stdout, /1 change: 0 breaking, 0 possibly breaking, 1 safe/);
  t.match(stdout, /info +response-status-added +POST \/pets/);
  t.equal(readFileSync(path.join(dir, 'api.yaml'), 'utf8'), state.body);
  t.same(leftovers(dir), []);
});

t.test('an edited local file is fetched again and compared, not trusted to the ETag', async (t) => {
  const { state, url } = await descriptionServer(t);
  const dir = t.testdir({});
  t.equal((await sync(dir, url)).code, 0);
  writeFileSync(path.join(dir, 'api.yaml'), withoutPet());
  const { code, stdout } = await sync(dir, url);
  t.equal(code, 0);
  t.equal(state.requests.at(-1).ifNoneMatch, undefined);
  t.match(stdout, /1 safe/, 'the path the server still has is reported as added');
  t.equal(readFileSync(path.join(dir, 'api.yaml'), 'utf8'), petstore);
});

t.test('404, 500, connection refused and a malformed body: one line naming the URL, exit 2, the local file untouched', async (t) => {
  const { state, base, url } = await descriptionServer(t);
  const dir = t.testdir({ 'api.yaml': petstore });
  const refused = await new Promise((resolve) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const port = probe.address().port;
      probe.close(() => resolve(`http://127.0.0.1:${port}/openapi.yaml`));
    });
  });
  for (const [what, target, pattern] of [
    ['404', `${base}/status/404`, /\/status\/404: cannot fetch: HTTP 404 \(check the URL\)$/],
    ['500', `${base}/status/500`, /\/status\/500: cannot fetch: HTTP 500 \(check the URL\)$/],
    ['refused', refused, /openapi\.yaml: cannot fetch: .*ECONNREFUSED.* \(check the URL and that the server is reachable\)$/],
    ['over 50 MB', `${base}/huge`, /\/huge: cannot fetch: the description is larger than 50 MB \(sync a smaller description\)$/],
    ['file URL', 'file:///etc/passwd', /^--url file:\/\/\/etc\/passwd: not an http\(s\) URL/],
  ]) {
    const { code, stdout, stderr } = await sync(dir, target);
    t.equal(code, 2, what);
    t.equal(stdout, '', what);
    t.equal(stderr.trimEnd().split('\n').length, 1, `${what}: one line`);
    t.match(stderr.trimEnd(), pattern, what);
  }
  const silent = await sync(dir, `${base}/silent`, '--timeout', '1');
  t.equal(silent.code, 2);
  t.match(silent.stderr, /\/silent: cannot fetch: no answer within 1 s \(check the server, or raise --timeout\)\n$/);
  state.body = 'openapi: 3.0.3\npaths: [unclosed\n';
  const malformed = await sync(dir, url);
  t.equal(malformed.code, 2);
  t.equal(malformed.stderr.trimEnd().split('\n').length, 1);
  t.match(malformed.stderr, `${url}:`, 'the error names the URL, not the temporary file');
  t.equal(readFileSync(path.join(dir, 'api.yaml'), 'utf8'), petstore);
  t.notOk(existsSync(path.join(dir, 'api.yaml.sync.json')));
  t.same(leftovers(dir), []);
});

t.test('--url and --to are paired: a missing --to is one line, exit 2', async (t) => {
  const dir = t.testdir({});
  const { code, stderr } = await runMock(['contract-sync', '--url', 'http://127.0.0.1:9/a.yaml', '--url', 'http://127.0.0.1:9/b.yaml', '--to', 'a.yaml'], { cwd: dir });
  t.equal(code, 2);
  t.match(stderr, '2 --url but 1 --to');
});

t.test('a --to of no known description kind is refused before anything is fetched', async (t) => {
  const { state, url } = await descriptionServer(t);
  const dir = t.testdir({});
  const { code, stderr } = await runMock(['contract-sync', '--url', url, '--to', 'api.txt'], { cwd: dir });
  t.equal(code, 2);
  t.match(stderr, /^--to api\.txt: unknown description kind \(name it \.yaml, /);
  t.same(state.requests, []);
  t.same(readdirSync(dir), []);
});

/** Waits (polling the child's output) until `pattern` matches it `times` times. */
async function until(read, pattern, times = 1) {
  while ((read().match(new RegExp(pattern, 'g')) ?? []).length < times) await sleep(50);
}

t.test('--watch polls: silent on 304, a kept change reported once, errors one line and it keeps running', async (t) => {
  const { state, url } = await descriptionServer(t);
  const dir = t.testdir({});
  const watcher = await startCommand(['contract-sync', '--url', url, '--to', 'api.yaml', '--fail-on', 'error', '--watch', '1'], /api\.yaml: (created) from/, { cwd: dir });
  t.teardown(() => watcher.stop());
  const polled = state.requests.length;
  while (state.requests.length < polled + 2) await sleep(50);
  t.notMatch(watcher.stdout, 'unchanged', 'nothing printed while the server answers 304');

  state.body = withoutPet();
  await until(() => watcher.stdout, 'api\\.yaml: kept');
  const seen = state.requests.length;
  while (state.requests.length < seen + 2) await sleep(50);
  t.equal((watcher.stdout.match(/path-removed/g) ?? []).length, 1, 'the kept change is reported once');
  t.equal(readFileSync(path.join(dir, 'api.yaml'), 'utf8'), petstore, 'the local file is kept');

  state.body = 'openapi: 3.0.3\npaths: [unclosed\n';
  await until(() => watcher.stderr, 'invalid YAML/JSON');
  state.body = withConflict();
  await until(() => watcher.stdout, 'api\\.yaml: updated from');
  t.equal(readFileSync(path.join(dir, 'api.yaml'), 'utf8'), state.body, 'still running after the error, and the safe change landed');
  t.equal(watcher.child.exitCode, null);
});
