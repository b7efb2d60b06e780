// The control surface as an attacker sees it (docs/admin.md "Security"), through the real CLI:
// the two-step "save code, restart" attack, cross-site and DNS-rebinding requests, loopback binds
// and the warning when they are opened, hostile patterns on the request path, credentials in the
// request logs, the proxy and environment endpoints, and a save cut short by kill -9.
import t from 'tap';
import { existsSync, mkdirSync, readFileSync, readdirSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EventSource } from 'eventsource';
import { startCommand, startMock, tmpdir } from '../helpers/cli.js';
import { exactRequest as request, jsonBody as json, readAnswer, restartSettled, startAdminCommand } from '../helpers/admin.js';

const EVIL = 'https://evil.example';
const SECRETS = {
  bearer: 'HEADER-SECRET-1',
  cookie: 'COOKIE-SECRET-2',
  key: 'APIKEY-SECRET-3',
  proxy: 'PROXY-SECRET-4',
  tenant: 'TENANT-SECRET-5',
  auth: 'XAUTH-SECRET-6',
  amz: 'AMZ-SESSION-SECRET-7',
  vault: 'VAULT-SECRET-8',
  mgmt: 'MANAGEMENT-SECRET-9',
};

// A project whose description declares apiKey schemes (header and query) and whose mock.yaml has a
// custom route with a /regex/ condition; the build goes to project/generated, inside the project.
const project = path.join(tmpdir(), 'project');
mkdirSync(project);
writeFileSync(
  path.join(project, 'api.yaml'),
  `openapi: 3.0.3
info: { title: Things, version: '1' }
servers: [{ url: /v1 }]
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-API-Key }
    query_key: { type: apiKey, in: query, name: api_key }
paths:
  /things:
    get:
      parameters:
        - { name: slug, in: query, schema: { type: string, pattern: '^(\\w+\\s?)*$' } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: integer } } } } } }
`,
);
writeFileSync(
  path.join(project, 'mock.yaml'),
  `specs: [api.yaml]
seed: 1
logging: { format: json, redact: [x-tenant-token], request_lines_per_second: 0 }
http:
  routes:
    - path: /custom/hostile
      match: { headers: { x-r: "/(a+)+$/" } }
      response: { status: 200, body: { custom: true } }
`,
);
const config = path.join(project, 'mock.yaml');
const entry = path.join(project, 'generated', 'api', 'index.js');

// info level and JSON lines, none summed up (the linear-time test sends hundreds of requests a
// second): every request's log entry reaches stdout, where no secret may appear
const server = await startMock(['-c', config, '--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0'], { cwd: project, env: { MOCK_LOG_LEVEL: 'info' } });
t.teardown(() => server.stop());
const { adminUrl, metricsUrl, url: mockUrl } = server;


/** The address a TCP port listens on, read from the kernel's socket table (/proc/net/tcp, tcp6). */
function listeningAddress(port) {
  const hexPort = Number(port).toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || !local?.endsWith(`:${hexPort}`)) continue;
      const hex = local.split(':')[0];
      if (hex.length === 8) return hex.match(/../g).reverse().map((b) => parseInt(b, 16)).join('.');
      return hex === '0'.repeat(32) ? '::' : hex === '00000000000000000000000001000000' ? '::1' : hex;
    }
  }
  return undefined;
}

const eventually = async (probe, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!probe() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return probe();
};

t.test('the admin and metrics servers listen on loopback by default, without a warning', async (t) => {
  t.match(adminUrl, /^http:\/\/127\.0\.0\.1:\d+$/, 'the admin reports 127.0.0.1');
  t.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+$/, 'the metrics endpoint too');
  t.equal(listeningAddress(new URL(adminUrl).port), '127.0.0.1', 'the socket table agrees for the admin port');
  t.equal(listeningAddress(new URL(metricsUrl).port), '127.0.0.1', 'and for the metrics port');
  t.notMatch(server.stdout + server.stderr, /reachable from other machines/, 'nothing to warn about');
});

t.test('step 1 of the attack, saving code, fails at every turn', async (t) => {
  const before = readFileSync(entry, 'utf8');
  const payload = JSON.stringify({ file_path: 'generated/api/index.js', content: 'process.exit(42)' });
  // what a page of another site can send without a preflight
  const simple = await request(adminUrl, 'POST', '/__mock/files/save', { headers: { 'content-type': 'text/plain', origin: EVIL }, body: payload });
  t.equal(simple.status, 403, 'a cross-site request is refused before anything runs');
  t.match(simple.json, { success: false, data: null, error: /origin https:\/\/evil\.example are not allowed.*admin\.cors\.allowed_origins/ });
  t.equal(simple.headers['access-control-allow-origin'], undefined, 'and the page may not read the answer');
  const plain = await request(adminUrl, 'POST', '/__mock/files/save', { headers: { 'content-type': 'text/plain' }, body: payload });
  t.equal(plain.status, 415, 'text/plain is no JSON body, whoever sends it');
  t.match(plain.json.error, /Content-Type: application\/json \(got Content-Type: text\/plain/);
  const form = await request(adminUrl, 'POST', '/__mock/files/save', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: payload });
  t.equal(form.status, 415, 'nor is a form');
  const generated = await request(adminUrl, 'POST', '/__mock/files/save', json({ file_path: 'generated/api/index.js', content: 'process.exit(42)' }));
  t.equal(generated.status, 400, 'a proper JSON request still may not write generated output');
  t.match(generated.json.error, /is not a file the admin API reads or writes: it is generated output.*it edits API descriptions, mock\.yaml, fixtures and data files/);
  for (const file_path of ['plugin.js', 'node_modules/x/index.js', '.env', 'package.json']) {
    const res = await request(adminUrl, 'POST', '/__mock/files/save', json({ file_path, content: 'x' }));
    t.equal(res.status, 400, `${file_path} is refused`);
  }
  t.equal((await request(adminUrl, 'POST', '/__mock/files/content', json({ file_path: 'generated/api/index.js' }))).status, 400, 'generated code is not read either');
  t.equal(readFileSync(entry, 'utf8'), before, 'the generated module is untouched');
  t.notOk(existsSync(path.join(project, 'plugin.js')), 'no file was written');
  const fixture = json({ file_path: 'fixtures/pet.json', content: '{"id": 1}\n' }, { origin: 'http://localhost:5173' });
  t.equal((await request(adminUrl, 'POST', '/__mock/files/save', fixture)).status, 403, 'a page on this machine needs the browser token');
  const token = /name="mock-admin-token" content="([^"]+)"/.exec((await request(adminUrl, 'GET', '/')).text)[1];
  const allowed = await request(adminUrl, 'POST', '/__mock/files/save', { ...fixture, headers: { ...fixture.headers, 'x-mock-admin-token': token } });
  t.equal(allowed.status, 200, 'with it, a page on this machine may save a fixture');
  t.equal(allowed.headers['access-control-allow-origin'], 'http://localhost:5173', 'and read the answer');
  const tlsPage = await request(adminUrl, 'POST', '/__mock/files/save', { ...fixture, headers: { ...fixture.headers, origin: 'https://localhost:5173', 'x-mock-admin-token': token } });
  t.equal(tlsPage.status, 200, 'so may a dev server on https');
  t.equal(tlsPage.headers['access-control-allow-origin'], 'https://localhost:5173');
});

t.test('step 2, the restart: refused cross-site, and a tampered build is never imported', async (t) => {
  const crossSite = await request(adminUrl, 'POST', '/__mock/servers/restart', { headers: { origin: EVIL } });
  t.equal(crossSite.status, 403, 'a bodyless cross-site POST is refused too');
  t.equal((await restartSettled(adminUrl)).initiated_at, null, 'no restart was started');

  const original = readFileSync(entry, 'utf8');
  const marker = path.join(project, 'pwned.txt');
  // what an edit by hand, or by anything but mock build, looks like
  writeFileSync(entry, `${original}\nimport { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\n`);
  t.teardown(() => writeFileSync(entry, original));
  const restart = await request(adminUrl, 'POST', '/__mock/servers/restart', json({ reason: 'tampered' }));
  t.equal(restart.status, 200);
  const status = await restartSettled(adminUrl);
  t.equal(status.success, false, 'the restart fails');
  t.match(status.error, /generated\/api\/index\.js does not match the hash in its manifest\.json .*run mock build to regenerate it/, 'naming the file and the fix');
  t.notOk(existsSync(marker), 'the tampered module never ran');
  t.equal((await request(mockUrl, 'GET', '/v1/things')).status, 200, 'the previous build keeps serving');
});

t.test('a Host that is not this machine is refused (DNS rebinding), the health check excepted', async (t) => {
  for (const [base, p] of [
    [adminUrl, '/__mock/dashboard'],
    [adminUrl, '/__mock/logs'],
    [adminUrl, '/'],
    [mockUrl, '/__mock/stats'],
  ]) {
    const res = await request(base, 'GET', p, { headers: { host: `evil.example:${new URL(base).port}` } });
    t.equal(res.status, 403, `${p} on ${base}`);
    t.match(res.text, /Host \\"evil\.example:\d+\\" may not reach the admin API.*admin\.allowed_hosts/);
  }
  const write = await request(mockUrl, 'POST', '/__mock/mocks', json({ method: 'GET', path: '/rebound', response: { body: {} } }, { host: 'evil.example' }));
  t.equal(write.status, 403, 'a rebound write to the management router');
  t.equal((await request(adminUrl, 'GET', '/__mock/health', { headers: { host: 'lb-probe.internal' } })).status, 200, 'health answers any Host');
  t.equal((await request(mockUrl, 'GET', '/v1/things', { headers: { host: 'api.example.com' } })).status, 200, 'the mocked API answers any Host');
  for (const host of ['localhost', '127.0.0.1', `[::1]:${new URL(adminUrl).port}`, '192.168.7.7']) {
    t.equal((await request(adminUrl, 'GET', '/__mock/stats', { headers: { host } })).status, 200, `Host ${host} is fine`);
  }
});

t.test('proxy, runtime config and environment changes need the same protections as any write', async (t) => {
  const proxy = { config_type: 'proxy', data: { upstream_url: 'http://169.254.169.254', enabled: true } };
  t.equal((await request(adminUrl, 'POST', '/__mock/config/proxy', { headers: { 'content-type': 'text/plain' }, body: JSON.stringify(proxy) })).status, 415);
  t.equal((await request(adminUrl, 'POST', '/__mock/config/proxy', json(proxy, { origin: EVIL }))).status, 403);
  t.equal((await request(adminUrl, 'POST', '/__mock/config', json({ proxy: proxy.data }, { origin: 'null' }))).status, 403, 'an opaque origin (sandboxed frame, file:) is foreign');
  t.equal((await request(adminUrl, 'POST', '/__mock/env', json({ key: 'MOCK_PROXY_UPSTREAM', value: 'http://10.0.0.1' }, { origin: EVIL }))).status, 403);
  t.equal((await request(adminUrl, 'PUT', '/__mock/overrides', json([{ name: 'x', status: 500 }], { origin: EVIL }))).status, 403);
  const { json: config } = await request(adminUrl, 'GET', '/__mock/config');
  t.match(config.data.proxy, { enabled: false, upstream_url: null }, 'the proxy is as it was');
  t.equal(process.env.MOCK_PROXY_UPSTREAM, undefined);
});

t.test('hostile patterns run in linear time while another client is served', async (t) => {
  const hostile = { '/hostile/1': '(a+)+$', '/hostile/2': '(a|aa)+$', '/hostile/3': '(.*a){20}' };
  for (const [p, pattern] of Object.entries(hostile)) {
    // created on the mock's own port, as anyone reaching it can
    const res = await request(mockUrl, 'POST', '/__mock/mocks', json({ method: 'GET', path: p, match_headers: { 'x-r': pattern }, match_query: { q: pattern }, response: { body: { hit: p } } }));
    t.equal(res.status, 201, `a mock matching ${pattern}`);
  }
  const rules = [{ name: 'stars', match: { path: '/*a*a*a*a*a*a*a*a*a*a*a*a*b' }, status: 418 }];
  t.equal((await request(adminUrl, 'PUT', '/__mock/overrides', json(rules))).status, 200, 'an override rule whose glob backtracks in a backtracking engine');

  let healthy = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) if ((await request(mockUrl, 'GET', '/__mock/health')).status === 200) healthy++;
  })();
  // Each hostile input is timed beside a baseline of the same length that no engine backtracks on
  // (no 'a' for the a-patterns; for the anchored ^(\w+\s?)*$ a first character \w cannot match),
  // sent to the same route with the same answer: a linear-time engine answers both alike, a
  // backtracking one takes exponentially longer on the first (and never answers at these lengths).
  // Load slows both, so the ratio of their medians is judged, never a time: a fixed limit (50 ms
  // on the server) failed once on a loaded CI machine.
  const hostileInput = (length) => [`${'a'.repeat(length)}!`, `!${'b'.repeat(length)}`];
  const cases = [
    ...Object.keys(hostile).map((p) => ({ what: p, status: 404, inputs: hostileInput, send: (input) => request(mockUrl, 'GET', `${p}?q=${input}`, { headers: { 'x-r': input } }) })),
    { what: 'the custom route /(a+)+$/ condition', status: 404, inputs: hostileInput, send: (input) => request(mockUrl, 'GET', '/custom/hostile', { headers: { 'x-r': input } }) },
    { what: 'the override glob', status: 404, inputs: (length) => ['a'.repeat(length), 'b'.repeat(length)], send: (input) => request(mockUrl, 'GET', `/${input}`) },
    { what: "the description's own pattern ^(\\w+\\s?)*$, in request validation", status: 400, inputs: hostileInput, send: (input) => request(mockUrl, 'GET', `/v1/things?slug=${input}`) },
  ];
  const times = new Map(cases.map((c) => [c, { hostile: [], plain: [] }]));
  const answers = new Map(cases.map((c) => [c, new Set()]));
  const timed = async (c, input) => {
    const start = performance.now();
    answers.get(c).add((await c.send(input)).status);
    return performance.now() - start;
  };
  for (const c of cases) for (const input of c.inputs(32)) await timed(c, input); // warm-up, not judged
  for (const length of [32, 48, 64]) {
    for (let round = 0; round < 5; round++) {
      for (const c of cases) {
        const [evil, plain] = c.inputs(length);
        const { hostile: hostileMs, plain: plainMs } = times.get(c);
        // alternate which goes first, so that neither profits from the other's warm caches
        if (round % 2 === 0) {
          hostileMs.push(await timed(c, evil));
          plainMs.push(await timed(c, plain));
        } else {
          plainMs.push(await timed(c, plain));
          hostileMs.push(await timed(c, evil));
        }
      }
    }
  }
  polling = false;
  await poller;
  const median = (list) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)];
  for (const [c, { hostile: hostileMs, plain: plainMs }] of times) {
    t.same([...answers.get(c)], [c.status], `${c.what}: no match, answered ${c.status}`);
    const ratio = median(hostileMs) / median(plainMs);
    t.ok(ratio < 10, `${c.what}: hostile inputs take as long as plain ones of the same length (medians ${median(hostileMs).toFixed(2)} and ${median(plainMs).toFixed(2)} ms: ${ratio.toFixed(2)}x)`);
  }
  t.ok(healthy > 0, `the second client was served meanwhile (${healthy} health checks)`);
  const matching = await request(mockUrl, 'GET', '/hostile/1?q=aaaa', { headers: { 'x-r': 'aaaa' } });
  t.same(matching.json, { hit: '/hostile/1' }, 'the patterns still match what they should');

  for (const [pattern, construct] of [
    ['(a)\\1', /backreference/],
    ['(?=a)a', /lookahead/],
    ['(?<!x)a', /negative lookbehind/],
  ]) {
    const res = await request(mockUrl, 'POST', '/__mock/mocks', json({ method: 'GET', path: '/refused', match_headers: { 'x-r': pattern }, response: { body: {} } }));
    t.equal(res.status, 400, `${pattern} is refused at creation`);
    t.match(res.json.error, construct, 'naming the construct');
  }
  const badRule = await request(adminUrl, 'PUT', '/__mock/overrides', json([{ name: 'long', match: { path: `/${'*a'.repeat(600)}` }, status: 500 }]));
  t.equal(badRule.status, 400, 'a glob too long to compile is refused, the previous rules stay');
  t.equal((await request(adminUrl, 'PUT', '/__mock/overrides', json([]))).status, 200);
});

t.test('credentials are redacted in the request log, the SSE stream and the dashboard', async (t) => {
  const es = new EventSource(`${adminUrl}/__mock/logs/sse?path=/v1/things`);
  t.teardown(() => es.close());
  const streamed = new Promise((resolve, reject) => {
    es.addEventListener('log', (event) => resolve(JSON.parse(event.data)));
    es.onerror = (e) => reject(new Error(`EventSource failed: ${e.message ?? e.type}`));
  });
  await new Promise((resolve) => (es.onopen = resolve));
  const res = await request(mockUrl, 'GET', `/v1/things?api_key=${SECRETS.key}`, {
    headers: {
      authorization: `Bearer ${SECRETS.bearer}`,
      cookie: `sid=${SECRETS.cookie}`,
      'x-api-key': SECRETS.key,
      'proxy-authorization': `Basic ${SECRETS.proxy}`,
      'x-tenant-token': SECRETS.tenant,
      'x-auth-token': SECRETS.auth,
      'x-amz-security-token': SECRETS.amz,
      'x-vault-token': SECRETS.vault,
      'x-mock-management-token': SECRETS.mgmt,
      'x-visible': 'shown',
    },
  });
  t.equal(res.status, 200);
  const views = {
    'the SSE event': await streamed,
    'GET /__mock/logs': (await request(adminUrl, 'GET', '/__mock/logs?path=/v1/things&limit=1')).json.data[0],
    'the dashboard recent_logs': (await request(adminUrl, 'GET', '/__mock/dashboard')).json.data.recent_logs.find((e) => e.path === '/v1/things'),
  };
  for (const [where, logged] of Object.entries(views)) {
    t.match(
      logged.headers,
      { authorization: '[redacted]', cookie: '[redacted]', 'x-api-key': '[redacted]', 'proxy-authorization': '[redacted]', 'x-tenant-token': '[redacted]', 'x-visible': 'shown' },
      `${where}: credential headers, the description's apiKey header and logging.redact names`,
    );
    t.match(
      logged.headers,
      { 'x-auth-token': '[redacted]', 'x-amz-security-token': '[redacted]', 'x-vault-token': '[redacted]', 'x-mock-management-token': '[redacted]' },
      `${where}: the ecosystem's credential headers, though the description does not declare them`,
    );
  }
  const everything = JSON.stringify(views);
  for (const secret of Object.values(SECRETS)) t.notMatch(everything, secret, `${secret} appears nowhere`);
  t.ok(await eventually(() => server.stdout.includes('"x-api-key":"[redacted]"')), 'the JSON log line carries the redacted entry');
  const line = server.stdout.split('\n').find((l) => l.includes('"x-visible":"shown"'));
  t.match(JSON.parse(line).request.headers, { 'x-auth-token': '[redacted]', 'x-amz-security-token': '[redacted]', 'x-vault-token': '[redacted]' }, 'so do the ecosystem credential headers in it');
  for (const secret of Object.values(SECRETS)) t.notMatch(server.stdout + server.stderr, secret, `${secret} never reaches the server's log`);
});

t.test('--admin-embed: the same guards on the mock port', async (t) => {
  const embedded = await startMock(['-c', config, '--admin-embed'], { cwd: project });
  t.teardown(() => embedded.stop());
  const base = embedded.url;
  t.match(embedded.stdout, /admin embedded at http:\/\/127\.0\.0\.1:\d+\/admin/);
  t.equal((await request(base, 'POST', '/__mock/files/save', { headers: { 'content-type': 'text/plain' }, body: '{"file_path":"x.yaml","content":"x"}' })).status, 415);
  t.equal((await request(base, 'POST', '/__mock/mocks', json({ method: 'GET', path: '/x', response: { body: {} } }, { origin: EVIL }))).status, 403);
  t.equal((await request(base, 'OPTIONS', '/__mock/config', { headers: { origin: EVIL, 'access-control-request-method': 'POST' } })).status, 403, 'a foreign preflight is refused');
  t.equal((await request(base, 'GET', '/admin', { headers: { host: 'evil.example' } })).status, 403, 'the embedded page checks Host too');
  const generated = await request(base, 'POST', '/__mock/files/save', json({ file_path: 'generated/api/index.js', content: 'x' }));
  t.equal(generated.status, 400);
  t.match(generated.json.error, /generated output/);
  t.equal((await request(base, 'GET', '/__mock/dashboard')).status, 200, 'this machine is served');
});

t.test('binding beyond loopback warns once per surface, and a save cut short by kill -9 leaves nothing behind', async (t) => {
  const open = path.join(tmpdir(), 'open');
  mkdirSync(open);
  writeFileSync(path.join(open, 'api.yaml'), readFileSync(path.join(project, 'api.yaml')));
  writeFileSync(path.join(open, 'mock.yaml'), 'specs: [api.yaml]\n');
  writeFileSync(path.join(open, 'big.yaml'), 'version: 1\n');
  const exposed = await startMock(['-c', path.join(open, 'mock.yaml'), '--admin', '--admin-port', '0', '--admin-host', '0.0.0.0', '--metrics', '--metrics-port', '0'], {
    cwd: open,
    env: { MOCK_METRICS_HOST: '0.0.0.0' },
  });
  t.teardown(() => exposed.stop());
  const log = () => exposed.stdout + exposed.stderr;
  const adminPort = new URL(exposed.adminUrl).port;
  t.equal(listeningAddress(adminPort), '0.0.0.0', 'the admin listens on every interface as asked');
  t.equal(listeningAddress(new URL(exposed.metricsUrl).port), '0.0.0.0', 'and so does the metrics endpoint');
  t.ok(await eventually(() => /metrics endpoint at .* is reachable from other machines/.test(log())), log());
  t.match(log(), /the admin API at http:\/\/0\.0\.0\.0:\d+ is reachable from other machines: --admin-host 127\.0\.0\.1 keeps it local \(docs\/admin\.md#reachable-from-other-machines\)\n/, 'what is open, the simplest fix and where the others are written');
  t.equal(log().split('is reachable from other machines').length - 1, 2, 'one line each');

  // tests talk to loopback only: 0.0.0.0 includes 127.0.0.1
  const content = `data: "${'x'.repeat(9 * 1024 * 1024)}"\n`;
  let temp;
  let victim = exposed;
  for (let attempt = 0; attempt < 3 && temp === undefined; attempt++) {
    if (attempt > 0) victim = await startMock(['-c', path.join(open, 'mock.yaml'), '--admin', '--admin-port', '0'], { cwd: open });
    temp = await killMidSave(victim, `http://127.0.0.1:${new URL(victim.adminUrl).port}`, open, content);
  }
  t.ok(temp, 'the server died in the middle of a save, its temporary file on disk');
  t.ok(['version: 1\n', content].includes(readFileSync(path.join(open, 'big.yaml'), 'utf8')), 'the file itself is one whole version');
  const next = await startAdminCommand(['-c', path.join(open, 'mock.yaml'), '--port', '0'], { cwd: open });
  t.teardown(() => next.stop());
  t.notOk(existsSync(temp), 'the next server on the project removed the temporary file');
  t.same(readdirSync(open).sort(), ['api.yaml', 'big.yaml', 'generated', 'mock.yaml'], 'nothing else is left in the project');
});

/**
 * Saves `content` to big.yaml and kills the server with SIGKILL as soon as the save's temporary
 * file appears; resolves with that file's path if it outlived the server (the save was cut short).
 */
async function killMidSave(victim, base, dir, content) {
  const seen = new Promise((resolve) => {
    const watcher = watch(dir, (_, name) => {
      if (name !== null && /^big\.yaml\.\d+$/.test(name)) {
        watcher.close();
        resolve(path.join(dir, name));
      }
    });
    setTimeout(() => {
      watcher.close();
      resolve(undefined);
    }, 10_000);
  });
  request(base, 'POST', '/__mock/files/save', json({ file_path: 'big.yaml', content })).catch(() => {});
  const created = await seen;
  victim.child.kill('SIGKILL');
  await victim.stop();
  return created !== undefined && existsSync(created) ? created : undefined;
}

t.test('mock admin --host 0.0.0.0 warns too; a bad allowed origin stops it naming the key', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'mock.yaml'), 'admin:\n  cors: { allowed_origins: ["localhost:5173"] }\n');
  const refused = await startCommand(['admin', '--port', '0', '-c', path.join(dir, 'mock.yaml')], /admin on (http:\/\/\S+)/, { cwd: dir }).then(
    (s) => s.stop().then(() => undefined),
    (e) => e,
  );
  t.ok(refused, 'it does not start');
  t.match(refused.stderr, /admin\.cors\.allowed_origins\[0\]: expected an origin such as http:\/\/localhost:5173/);
  const standalone = await startCommand(['admin', '--port', '0', '--host', '0.0.0.0'], /admin on (http:\/\/\S+)/, { cwd: tmpdir() });
  t.teardown(() => standalone.stop());
  t.match(standalone.url, /^http:\/\/0\.0\.0\.0:\d+$/);
  t.ok(await eventually(() => /the admin API at http:\/\/0\.0\.0\.0:\d+ is reachable from other machines/.test(standalone.stdout + standalone.stderr)));
});
