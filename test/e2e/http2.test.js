// HTTP/2 (issue 42 item 4; docs/http2.md): `--http-version 2` serves the HTTP mock through
// node:http2. On a plain port: h2c by prior knowledge (curl --http2-prior-knowledge, Node's http2
// client) and HTTP/1.1 and 1.0 on the same port; on a TLS port: h2 and HTTP/1.1 as ALPN chooses
// (curl --http2 --cacert). The same chain answers: validation, the admin API, runtime mocks, held
// answers on streams of one connection, 413; and http_version auto is HTTP/2 on a TLS port only.
import t from 'tap';
import http2 from 'node:http2';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, runMock, startMock, tmpdir } from '../helpers/cli.js';
import { makeCertificates } from '../helpers/certificates.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');
const out = tmpdir();

/** One request on an HTTP/2 session; resolves with status, headers and text. */
function h2(session, method, target, { body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': method, ':path': target, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
    let status;
    let head;
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => {
      status = h[':status'];
      head = h;
    });
    stream.on('data', (d) => (text += d));
    stream.on('end', () => resolve({ status, headers: head, text }));
    stream.on('error', reject);
    stream.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** curl's exit code. */
function curlExit(args) {
  return spawnSync('curl', ['-s', '-o', '/dev/null', ...args]).status;
}

/** curl's answer line: `<HTTP version> <status>`. */
function curl(args) {
  return spawnSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_version} %{http_code}', ...args], { encoding: 'utf8' }).stdout;
}

t.test('a plain port serves h2c by prior knowledge and HTTP/1.1 and 1.0 beside it', async (t) => {
  const server = await startMock(['--spec', petstore, '--out', out, '--http-version', '2', '--admin-embed'], { cwd: tmpdir() });
  t.teardown(() => server.stop());
  t.match(server.stdout, /serving on http:\/\/127\.0\.0\.1:\d+\/v1 \(node:http2: HTTP\/2 by prior knowledge, and HTTP\/1\.1\)/);
  t.equal(curl(['--http2-prior-knowledge', `${server.url}/v1/pets`]), '2 200', 'curl over h2c');
  t.equal(curl([`${server.url}/v1/pets`]), '1.1 200', 'curl over HTTP/1.1 on the same port');
  t.equal(curl(['--http1.0', `${server.url}/v1/pets`]), '1.1 200', 'and HTTP/1.0');

  const session = http2.connect(server.url);
  t.teardown(() => session.close());
  const pets = await h2(session, 'GET', '/v1/pets?limit=2');
  t.equal(pets.status, 200);
  t.ok(Array.isArray(JSON.parse(pets.text)));
  t.notOk('connection' in pets.headers || 'keep-alive' in pets.headers, 'no HTTP/1.1 connection fields');
  const invalid = await h2(session, 'POST', '/v1/pets', { body: { name: 7 } });
  t.equal(invalid.status, 400, 'validated as on HTTP/1.1');
  // the admin API and runtime mocks, over the same session
  const made = await h2(session, 'POST', '/__mock/mocks', { body: { method: 'GET', path: '/v1/h2', response: { body: { over: 'h2' } } } });
  t.equal(made.status, 201, made.text);
  t.same(JSON.parse((await h2(session, 'GET', '/v1/h2')).text), { over: 'h2' });
  const logs = JSON.parse((await h2(session, 'GET', '/__mock/logs?limit=5')).text).data;
  const logged = logs.find((entry) => entry.path === '/v1/h2');
  t.equal(logged.client_ip, '127.0.0.1', "the client's address of an h2c connection");
  t.match(logged.headers.host, /^127\.0\.0\.1:\d+$/, ':authority is the Host');
  t.notOk(
    Object.keys(logged.headers).some((name) => name.startsWith(':')),
    'pseudo-header fields are the request line, not headers',
  );

  // answers held by latency (a delivery the writer schedules) go out on their own streams of one connection
  t.equal((await h2(session, 'POST', '/__mock/config/latency', { body: { enabled: true, base_ms: 300, jitter_ms: 0 } })).status, 200);
  const held = await Promise.all(Array.from({ length: 8 }, () => h2(session, 'GET', '/v1/pets')));
  t.same(
    held.map((a) => a.status),
    Array(8).fill(200),
  );
  t.ok(
    held.every((a) => Array.isArray(JSON.parse(a.text))),
    'every held answer whole',
  );
  t.equal((await h2(session, 'POST', '/__mock/config/latency', { body: { enabled: false } })).status, 200);

  // chaos's connection faults fail the request's stream, not the connection's other requests
  for (const kind of ['tcp_reset', 'tcp_close']) {
    const faults = { enabled: true, connection_errors: true, connection_error_probability: 1, connection_error_kind: kind };
    t.equal((await h2(session, 'PUT', '/__mock/chaos/config/faults', { body: faults })).status, 200);
    const failed = await h2(session, 'GET', '/v1/pets').then(
      (a) => a.status ?? 'unanswered',
      (e) => e.code,
    );
    t.equal(failed, kind === 'tcp_reset' ? 'ERR_HTTP2_STREAM_ERROR' : 'unanswered', `${kind}: the request's stream fails`);
    if (kind === 'tcp_reset') t.equal(curlExit(['--http2-prior-knowledge', `${server.url}/v1/pets`]), 92, 'curl: stream not closed cleanly (92)');
    t.equal((await h2(session, 'PUT', '/__mock/chaos/config/faults', { body: { enabled: false } })).status, 200, 'the same connection goes on');
  }
  t.equal((await h2(session, 'GET', '/v1/pets')).status, 200);
});

t.test('a body past http.max_body_bytes is refused on its stream, and the session goes on', async (t) => {
  const dir = tmpdir();
  const { writeFileSync } = await import('node:fs');
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${petstore}]\nserver: { http_version: "2" }\nhttp: { max_body_bytes: 1024 }\n`);
  const server = await startMock(['--out', out], { cwd: dir });
  t.teardown(() => server.stop());
  const session = http2.connect(server.url);
  t.teardown(() => session.close());
  const big = await h2(session, 'POST', '/v1/pets', { body: { name: 'x'.repeat(4000) } });
  t.equal(big.status, 413);
  t.equal((await h2(session, 'GET', '/v1/pets')).status, 200, 'the same session answers the next request');
});

t.test('a TLS port serves h2 and HTTP/1.1 as ALPN chooses; auto is HTTP/2 there', async (t) => {
  const certs = makeCertificates(tmpdir());
  const pair = { cert: path.join(certs.dir, 'server.pem'), key: path.join(certs.dir, 'server.key'), ca: path.join(certs.dir, 'ca.pem') };
  const server = await startMock(['--spec', petstore, '--out', out, '--http-version', 'auto', '--tls-cert', pair.cert, '--tls-key', pair.key], { cwd: tmpdir() });
  t.teardown(() => server.stop());
  t.match(server.url, /^https:/);
  t.equal(curl(['--http2', '--cacert', pair.ca, `${server.url}/v1/pets`]), '2 200', 'curl negotiates h2');
  t.equal(curl(['--http1.1', '--cacert', pair.ca, `${server.url}/v1/pets`]), '1.1 200', 'and HTTP/1.1 on the same port');
  const session = http2.connect(server.url, { ca: readFileSync(pair.ca) });
  t.teardown(() => session.close());
  t.equal(session.alpnProtocol ?? (await new Promise((r) => session.once('connect', () => r(session.alpnProtocol)))), 'h2');
  t.equal((await h2(session, 'GET', '/v1/pets')).status, 200);
});

t.test('without TLS, auto is HTTP/1.1; HTTP/2 with http_backend uws is one line', async (t) => {
  const server = await startMock(['--spec', petstore, '--out', out, '--http-version', 'auto'], { cwd: tmpdir() });
  t.teardown(() => server.stop());
  t.notMatch(server.stdout, /node:http2/);
  const refused = await runMock(['serve', '--spec', petstore, '--out', out, '--http-version', '2', '--http-backend', 'uws', '--http-port', '0'], { cwd: tmpdir() });
  t.equal(refused.code, 1);
  t.match(refused.stderr, /server.http_version 2 serves with node:http2, but server.http_backend is uws, which has no HTTP\/2/);
});
