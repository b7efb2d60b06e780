// The conditional proxy (spec `ProxyConfig.rules`) through `mock serve` and proxy.rules in
// mock.yaml, with real upstreams on loopback: conditions of every kind select the requests that go
// upstream, the rest is mocked; a rule's own upstream_url; an upstream down (502) or too slow
// (504); the mock's admin credentials never reach the upstream; a malformed condition stops the
// start with one line giving its position.
import t from 'tap';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, runMock, startMock, tmpdir } from '../helpers/cli.js';

/** An upstream that answers {upstream: name, url} and keeps what reached it. */
async function upstream(name, delayMs = 0) {
  const received = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ upstream: name, url: req.url }));
      }, delayMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${server.address().port}`, received };
}

const main = await upstream('main');
const other = await upstream('other');
const slow = await upstream('slow', 3000);
const closed = http.createServer();
await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
const down = `http://127.0.0.1:${closed.address().port}`;
await new Promise((resolve) => closed.close(resolve));

const dir = tmpdir();
const spec = JSON.stringify(path.join(root, 'examples', 'petstore.yaml'));
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `specs: [${spec}]
proxy:
  upstream_url: ${main.url}
  timeout_seconds: 0.5
  rules:
    - { pattern: /v1/pets, condition: "$.owner.email == 'vip@example.com'" }
    - { pattern: /v1/pets/*, upstream_url: "${other.url}/other", condition: "header[x-route] == 'other'" }
    - { pattern: /v1/pets, condition: "AND(query[kind] == 'bird', NOT(query[limit] == '1'))" }
    - { pattern: /v1/pets/*, condition: "OR(header[X-Beta] != '', query[beta] == 'yes')" }
    - { pattern: /v1/pets/*, condition: "AND(OR($.tags[*] == 'real', header[x-real] == '1'), NOT($.dry_run == true))" }
    - { pattern: /v1/health }
    - { pattern: /v1/slow/**, upstream_url: "${slow.url}" }
    - { pattern: /v1/down/**, upstream_url: "${down}" }
admin: { enabled: true, auth: { enabled: true } }
`,
);
const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', path.join(dir, 'out'), '--admin', '--admin-port', '0'], { cwd: dir });
t.teardown(() => server.stop());

/** A request to the mock: where it was answered from (the upstream's name, or mock). */
async function source(method, target, { headers = {}, body } = {}) {
  const res = await fetch(`${server.url}${target}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => undefined);
  return { status: res.status, from: json?.upstream ?? 'mock', json };
}

t.test('a JSONPath comparison on the JSON body', async (t) => {
  const pet = { name: 'Tom', kind: 'cat', owner: { email: 'vip@example.com' } };
  t.same(await source('POST', '/v1/pets', { body: pet }), { status: 200, from: 'main', json: { upstream: 'main', url: '/v1/pets' } });
  t.equal(main.received.at(-1).body, JSON.stringify(pet), 'the body reached the upstream');
  t.same((await source('POST', '/v1/pets', { body: { ...pet, owner: { email: 'joe@example.com' } } })).from, 'mock', 'another owner: mocked');
  t.equal((await source('POST', '/v1/pets', { body: { ...pet, owner: { email: 'joe@example.com' } } })).status, 201);
});

t.test('a header check, to the rule’s own upstream (its path prefixes the request’s)', async (t) => {
  const res = await source('GET', '/v1/pets/1', { headers: { 'x-route': 'other' } });
  t.same(res.json, { upstream: 'other', url: '/other/v1/pets/1' });
  t.equal((await source('GET', '/v1/pets/1', { headers: { 'x-route': 'elsewhere' } })).from, 'mock');
});

t.test('query checks in AND and NOT', async (t) => {
  t.equal((await source('GET', '/v1/pets?kind=bird&limit=5')).from, 'main');
  t.equal((await source('GET', '/v1/pets?kind=bird&limit=1')).from, 'mock', 'NOT(limit == 1) fails');
  t.equal((await source('GET', '/v1/pets?kind=cat')).from, 'mock');
  t.equal(main.received.at(-1).url, '/v1/pets?kind=bird&limit=5', 'the query reached the upstream as sent');
});

t.test('OR of a header (any case) and a query value, and nested conditions', async (t) => {
  t.equal((await source('GET', '/v1/pets/2', { headers: { 'x-beta': 'on' } })).from, 'main');
  t.equal((await source('GET', '/v1/pets/2?beta=yes')).from, 'main');
  t.equal((await source('GET', '/v1/pets/2', { headers: { 'x-beta': '' } })).from, 'mock', "header[x-beta] != '' needs a value");
  t.equal((await source('GET', '/v1/pets/2?beta=no')).from, 'mock');
  t.equal((await source('DELETE', '/v1/pets/3', { body: { tags: ['x', 'real'] } })).from, 'main');
  t.equal((await source('DELETE', '/v1/pets/3', { body: { tags: ['real'], dry_run: true } })).from, 'mock', 'NOT($.dry_run == true) fails');
  t.equal((await source('DELETE', '/v1/pets/3', { headers: { 'x-real': '1' } })).status, 200, 'the header side of the OR');
  t.equal((await source('DELETE', '/v1/pets/3')).status, 204, 'neither: the mock’s 204');
});

t.test('an upstream that is down gives 502, one that is too slow 504, never a hang', async (t) => {
  const started = Date.now();
  const downRes = await fetch(`${server.url}/v1/down/x`);
  t.equal(downRes.status, 502);
  t.equal((await downRes.json()).code, 'MOCK_ERR_UPSTREAM_UNREACHABLE');
  const slowRes = await fetch(`${server.url}/v1/slow/x`);
  t.equal(slowRes.status, 504);
  const problem = await slowRes.json();
  t.equal(problem.code, 'MOCK_ERR_UPSTREAM_TIMEOUT');
  t.match(problem.detail, /no answer within 0\.5s/);
  t.ok(Date.now() - started < 2500, 'answered within proxy.timeout_seconds, not the upstream’s 3 s');
});

t.test("hop-by-hop headers and the mock's own admin credentials never reach the upstream", async (t) => {
  const login = await fetch(`${server.adminUrl}/__mock/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin-dev-password' }) });
  const { access_token: token } = (await login.json()).data;
  t.ok(token, 'logged in to the admin API');
  const headers = {
    authorization: `Bearer ${token}`,
    'x-mock-management-token': 'management-secret',
    'x-mock-admin-token': 'browser-token',
    'proxy-authorization': 'Basic cHJveHk6c2VjcmV0',
    'x-api-key': 'the-api-key',
  };
  t.equal((await source('GET', '/v1/health', { headers })).from, 'main');
  const sent = main.received.at(-1).headers;
  for (const name of ['authorization', 'x-mock-management-token', 'x-mock-admin-token', 'proxy-authorization']) t.notOk(name in sent, `${name} is not forwarded`);
  t.equal(sent['x-api-key'], 'the-api-key', "the API's own credentials are");
  await source('GET', '/v1/health', { headers: { authorization: 'Bearer api-user-token' } });
  t.equal(main.received.at(-1).headers.authorization, 'Bearer api-user-token', "a bearer token that is not the admin API's goes through");
});

t.test('a malformed condition stops mock serve with one line giving its position', async (t) => {
  const bad = tmpdir();
  writeFileSync(path.join(bad, 'mock.yaml'), `specs: [${spec}]\nproxy:\n  upstream_url: ${main.url}\n  rules:\n    - { pattern: /v1/**, condition: "AND(header[x] == 'a' query[y] == 'b')" }\n`);
  const res = await runMock(['serve', '--out', path.join(bad, 'out'), '--http-port', '0'], { cwd: bad });
  t.equal(res.code, 1);
  t.equal(res.stderr.trim(), `mock.yaml: proxy.rules[0].condition: expected "," or ")" in AND(...), found query[y] at position 22`);
  const validate = await runMock(['config', 'validate'], { cwd: bad });
  t.equal(validate.code, 1, 'mock config validate refuses it too');
  t.match(validate.stdout + validate.stderr, 'proxy.rules[0].condition: expected "," or ")"');
});
