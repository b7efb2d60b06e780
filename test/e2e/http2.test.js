// HTTP/2 (issue 42 item 4; docs/http2.md): `--http-version 2` serves the HTTP mock through
// node:http2. On a plain port: h2c by prior knowledge (curl --http2-prior-knowledge, Node's http2
// client) and HTTP/1.1 and 1.0 on the same port; on a TLS port: h2 and HTTP/1.1 as ALPN chooses
// (curl --http2 --cacert). The same chain answers: validation, the admin API, runtime mocks, held
// answers on streams of one connection, 413; and http_version auto is HTTP/2 on a TLS port only.
// Per server: graphql.http_version and admin.http_version serve the GraphQL mock and the admin
// server the same way, WebSocket upgrades beside them, and the admin's Host guard reads :authority.
import t from 'tap';
import http from 'node:http';
import http2 from 'node:http2';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { corpus, root, runMock, startCommand, startMock, tmpdir } from '../helpers/cli.js';
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

t.test('graphql.http_version and admin.http_version: HTTP/2 beside HTTP/1.1 on their own ports', async (t) => {
  const dir = tmpdir();
  const linear = path.join(corpus, 'graphql', 'linear.graphql');
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    `server: { graphql_port: 0, bind: 127.0.0.1 }
graphql: { schema: ${JSON.stringify(linear)}, http_version: "2", subscriptions: { interval_ms: 20, max_events: 2 } }
admin: { enabled: true, port: 0, http_version: "2" }
`,
  );
  // every address is printed in one write
  const server = await startCommand(['serve', '--out', tmpdir()], /GraphQL on (http:\/\/\S+)/, { cwd: dir });
  t.teardown(() => server.stop());
  const graphqlUrl = server.url;
  const adminUrl = /admin on (http:\/\/[^\s]+)/.exec(server.stdout)[1];
  t.match(server.stdout, /GraphQL on http:\/\/127\.0\.0\.1:\d+\/graphql \(node:http2: HTTP\/2 by prior knowledge, and HTTP\/1\.1\)/, 'the start line says HTTP/2');
  t.match(server.stdout, /admin on http:\/\/127\.0\.0\.1:\d+ \(dashboard .*; node:http2: HTTP\/2 by prior knowledge, and HTTP\/1\.1\)/);
  const { origin, pathname } = new URL(graphqlUrl);

  // GraphQL over h2c: POST and GET, GraphiQL for a browser
  const session = http2.connect(origin);
  t.teardown(() => session.close());
  const posted = await h2(session, 'POST', pathname, { body: { query: '{ viewer { id name } }' } });
  t.equal(posted.status, 200);
  t.type(JSON.parse(posted.text).data.viewer.id, 'string', 'a query answers over h2c');
  const got = await h2(session, 'GET', `${pathname}?query=${encodeURIComponent('{ viewer { id } }')}`, { headers: { accept: 'application/json' } });
  t.equal(got.status, 200);
  t.type(JSON.parse(got.text).data.viewer.id, 'string', 'and a GET');
  const graphiql = await h2(session, 'GET', pathname, { headers: { accept: 'text/html' } });
  t.equal(graphiql.status, 200);
  t.match(graphiql.headers['content-type'], /^text\/html/);
  t.match(graphiql.text, /graphiql/i, 'GraphiQL over h2c');
  t.equal(curl(['--http2-prior-knowledge', '-H', 'content-type: application/json', '--data', '{"query":"{ viewer { id } }"}', graphqlUrl]), '2 200', 'curl over h2c');
  t.equal(curl(['-H', 'content-type: application/json', '--data', '{"query":"{ viewer { id } }"}', graphqlUrl]), '1.1 200', 'and over HTTP/1.1 on the same port');

  // graphql-transport-ws on the same port: an HTTP/1.1 upgrade
  const client = createClient({ url: graphqlUrl.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
  t.teardown(() => client.dispose());
  const events = [];
  await new Promise((resolve, reject) => client.subscribe({ query: 'subscription { agentActivityArchived { id } }' }, { next: (event) => events.push(event), error: reject, complete: resolve }));
  t.equal(events.length, 2, 'a subscription runs on the HTTP/2 port');
  t.type(events[0].data.agentActivityArchived.id, 'string');

  // the admin server over h2c, and its Host guard on :authority
  const admin = http2.connect(adminUrl);
  t.teardown(() => admin.close());
  const health = await h2(admin, 'GET', '/__mock/health');
  t.equal(health.status, 200);
  t.equal(JSON.parse(health.text).status, 'healthy', 'the admin API over h2c');
  const details = JSON.parse((await h2(admin, 'GET', '/__mock/graphql')).text).data;
  t.match(details, { library: 'node:http2', http_version: '2' }, 'GET /__mock/graphql says the HTTP version');
  const dashboard = await h2(admin, 'GET', '/__mock/dashboard');
  t.equal(dashboard.status, 200, 'a read with its own :authority');
  t.match(
    JSON.parse(dashboard.text).data.servers.find((listed) => listed.server_type === 'GraphQL'),
    { library: 'node:http2', http_version: '2' },
    'servers[] says what serves the GraphQL port and its HTTP version',
  );
  const forged = await h2(admin, 'GET', '/__mock/dashboard', { headers: { ':authority': 'evil.example' } });
  t.equal(forged.status, 403, 'a forged :authority is refused');
  t.match(JSON.parse(forged.text).error, /Host "evil\.example" may not reach the admin API/);
  const both = await h2(admin, 'GET', '/__mock/dashboard', { headers: { ':authority': 'evil.example', host: '127.0.0.1' } });
  t.equal(both.status, 403, 'also beside a Host field naming this machine');
  const { host } = new URL(adminUrl);
  t.equal((await h2(admin, 'GET', '/__mock/dashboard', { headers: { ':authority': host, host } })).status, 200, 'a Host field repeating :authority is the same Host');
  const forgedHost = await new Promise((resolve, reject) => {
    const { port } = new URL(adminUrl);
    http
      .get({ host: '127.0.0.1', port, path: '/__mock/dashboard', headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
      .on('error', reject);
  });
  t.equal(forgedHost, 403, 'as a forged Host is over HTTP/1.1');
  // the live stream: an HTTP/1.1 upgrade on the admin's HTTP/2 port
  const opened = await new Promise((resolve) => {
    const ws = new WebSocket(`${adminUrl.replace(/^http/, 'ws')}/__mock/ws`);
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode));
    ws.on('error', (e) => resolve(e.message));
  });
  t.equal(opened, 'open', "the admin's live stream");
});

t.test('a bad http_version of a server is one line naming the key and the values', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'mock.yaml'), 'graphql: { http_version: "3" }\nadmin: { http_version: 2 }\n');
  const res = await runMock(['config', 'validate'], { cwd: dir });
  t.equal(res.code, 1);
  t.match(res.stderr, /graphql\.http_version: expected 1\.1, 2 or auto \(quoted in YAML: "2", "1\.1"\), got "3"/);
  t.match(res.stderr, /admin\.http_version: expected 1\.1, 2 or auto \(quoted in YAML: "2", "1\.1"\), got 2/);
});
