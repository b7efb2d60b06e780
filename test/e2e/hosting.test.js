// Hosted mode (issue 41, item 3; docs/hosting.md): one `mock serve` hosts tenants' mocks under
// /api/v1/hosted-mocks/{id}/, each on a plan whose quotas and permissions are enforced, created and
// changed with the host's management token (X-Mock-Management-Token, compared in constant time),
// each with keys of its own. One tenant's key reaches none of another's admin endpoints, and one
// tenant's mocks, logs, fixtures and state are not another's. Real descriptions of the corpus are
// uploaded as tenants; the node:http backend and two instances sharing Redis serve them too.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { corpus, root, runMock, startMock, tmpdir } from '../helpers/cli.js';
import { redisForFile } from '../helpers/shared-state.js';
import { exactRequest, readAnswer } from '../helpers/admin.js';

const OPERATOR = 'operator-token-for-the-hosting-test-0123456789';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function call(base, method, target, { body, token, headers = {} } = {}) {
  const res = await fetch(`${base}${target}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token === undefined ? {} : { 'x-mock-management-token': token }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return readAnswer(res);
}

const PLANS = `tenancy:
  plans:
    free:
      quotas: { max_requests_per_minute: 6, max_scenarios: 1, max_users: 2, max_templates: 1, max_orchestrations: 1, max_storage_mb: 1 }
      permissions: { can_create_scenarios: true, can_manage_users: true }
    pro:
      quotas: { max_concurrent_executions: 1, max_experiment_duration_secs: 1 }
      permissions: { can_view_observability: true, can_create_scenarios: true, can_execute_scenarios: true, can_manage_resilience: true, can_use_advanced_features: true, can_manage_users: true }
  tenants:
    acme:
      plan: pro
      spec: petstore.yaml
      description: declared in mock.yaml
`;

const dir = tmpdir();
copyFileSync(path.join(root, 'examples', 'petstore.yaml'), path.join(dir, 'petstore.yaml'));
writeFileSync(path.join(dir, 'mock.yaml'), `${PLANS}admin:\n  management_token: ${OPERATOR}\ncore:\n  fixtures:\n    dir: fixtures\n`);
const server = await startMock([], { cwd: dir, env: { MOCK_LOG_LEVEL: 'info' } });
t.teardown(() => server.stop());
const base = server.url;
const hosted = `${base}/api/v1/hosted-mocks`;
const tictactoe = readFileSync(path.join(corpus, 'openapi', 'oai-v3.1-tictactoe.yaml'), 'utf8');
const withExamples = JSON.parse(readFileSync(path.join(corpus, 'openapi', 'oai-v3.0-api-with-examples.json'), 'utf8'));

t.test('a tenant of mock.yaml serves its description under its prefix; the host, with no description of its own, answers nothing else', async (t) => {
  t.match(server.stdout + server.stderr, /hosted mock "acme" serves at \/api\/v1\/hosted-mocks\/acme\/ \(plan pro/);
  t.notMatch(server.stdout + server.stderr, /define no operations/, "the host's empty description is no warning");
  const pets = await call(base, 'GET', '/api/v1/hosted-mocks/acme/v1/pets?limit=2');
  t.equal(pets.status, 200, pets.text);
  t.ok(Array.isArray(pets.json));
  const unknown = await call(base, 'GET', '/api/v1/hosted-mocks/nobody/v1/pets');
  t.equal(unknown.status, 404);
  t.equal(unknown.json.code, 'MOCK_ERR_TENANT_NOT_FOUND');
  t.equal((await call(base, 'GET', '/v1/pets')).status, 404, "the host's own API is empty");
});

t.test('tenants are listed, created, changed and deleted with the management token only', async (t) => {
  for (const token of [undefined, 'wrong', `${OPERATOR}x`, OPERATOR.slice(0, -1)]) {
    t.equal((await call(hosted, 'GET', '', { token })).status, 401, `list with ${token}`);
    const created = await call(hosted, 'POST', '', { token, body: { id: 'nope', plan: 'free', spec: tictactoe } });
    t.equal(created.status, 401, `create with ${token}`);
    t.match(created.json.error, /X-Mock-Management-Token/i);
  }
  const listed = await call(hosted, 'GET', '', { token: OPERATOR });
  t.same(
    listed.json.data.map((m) => [m.id, m.plan, m.source]),
    [['acme', 'pro', 'mock.yaml']],
  );
  t.equal((await call(hosted, 'GET', '/nope', { token: OPERATOR })).status, 404);
});

let beta;
let gamma;
t.test('a tenant uploaded as a corpus description is built, served and gets an owner key shown once', async (t) => {
  const created = await call(hosted, 'POST', '', { token: OPERATOR, body: { id: 'beta', plan: 'free', spec: tictactoe, description: 'tic tac toe' } });
  t.equal(created.status, 201, created.text);
  t.match(created.json.data, { id: 'beta', plan: 'free', source: 'uploaded', url: '/api/v1/hosted-mocks/beta', keys: [{ name: 'owner', role: 'admin' }] });
  t.match(created.json.data.key, /^mkt_[A-Za-z0-9_-]{43}$/);
  beta = created.json.data.key;
  t.notOk(JSON.stringify((await call(hosted, 'GET', '/beta', { token: OPERATOR })).json).includes(beta), 'the key is never shown again');
  const made = await call(hosted, 'POST', '', { token: OPERATOR, body: { id: 'gamma', plan: 'pro', spec: withExamples } });
  t.equal(made.status, 201, made.text);
  gamma = made.json.data.key;
  const fields = await call(base, 'GET', '/api/v1/hosted-mocks/gamma/');
  t.equal(fields.status, 200, `the API versions, a description given as a JSON object: ${fields.text.slice(0, 200)}`);
  const own = await call(hosted, 'GET', '/beta', { token: beta });
  t.equal(own.status, 200, 'a key reads its own tenant');
  t.equal((await call(hosted, 'GET', '/beta', { token: gamma })).status, 401, "and not another's");
});

t.test('bad tenants are refused in one line and leave nothing behind', async (t) => {
  const cases = [
    [{ id: 'Bad_Id', plan: 'free', spec: tictactoe }, 400, /id: 1 to 63 lower-case/],
    [{ id: 'delta', plan: 'gold', spec: tictactoe }, 400, /plan: one of tenancy.plans \(free, pro\)/],
    [{ id: 'delta', plan: 'free' }, 400, /spec: the OpenAPI or Swagger description/],
    [{ id: 'delta', plan: 'free', spec: 'openapi: 3.0.0\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {$ref: "#/nope"}\n' }, 400, /spec: .*\$ref/],
    [{ id: 'delta', plan: 'free', spec: 'openapi: 3.0.0\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {$ref: "../../../etc/passwd"}\n' }, 400, /spec: /],
    [{ id: 'beta', plan: 'free', spec: tictactoe }, 409, /exists/],
  ];
  for (const [body, status, message] of cases) {
    const answer = await call(hosted, 'POST', '', { token: OPERATOR, body });
    t.equal(answer.status, status, JSON.stringify(body).slice(0, 60));
    t.match(answer.json.error, message);
  }
  t.equal((await call(hosted, 'POST', '', { token: OPERATOR, body: 'not json' })).status, 400, 'a body that is not JSON');
  t.equal(
    (await call(hosted, 'POST', '', { token: OPERATOR, body: 'id=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status,
    415,
    'a form, as a page of another site could send',
  );
  t.notOk(existsSync(path.join(dir, '.mock', 'tenants', 'delta')), 'no folder left by a refused tenant');
  t.equal((await call(base, 'GET', '/api/v1/hosted-mocks/delta/a')).json.code, 'MOCK_ERR_TENANT_NOT_FOUND');
});

t.test("every admin endpoint of a tenant refuses another tenant's key, and no key at all", async (t) => {
  const endpoints = (await call(hosted, 'GET', '/acme/__mock', { token: OPERATOR })).json.data;
  t.ok(endpoints.length > 40, `${endpoints.length} admin endpoints`);
  t.notOk(
    endpoints.some((e) => /\/(env|files|scenarios|recorder|server-config|servers)\b/.test(e.path)),
    "the host's process and disk are not a tenant's",
  );
  const tried = [];
  for (const { method, path: at } of endpoints) {
    const target = `/acme${at.replace(/\{[^}]+\}/g, 'x')}`;
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    for (const token of [beta, undefined]) {
      const answer = await call(hosted, method, target, { token, body });
      if (answer.status !== 401) tried.push(`${method} ${target} with ${token === undefined ? 'no key' : "beta's key"}: ${answer.status}`);
    }
  }
  t.same(tried, [], 'all 401');
  // the same paths through the spec's shortcuts
  for (const [method, target] of [
    ['GET', '/acme/overrides'],
    ['PUT', '/acme/overrides'],
    ['GET', '/acme/users'],
    ['POST', '/acme/users'],
    ['DELETE', '/acme/users/owner'],
  ]) {
    t.equal((await call(hosted, method, target, { token: beta, body: method === 'GET' ? undefined : [] })).status, 401, `${method} ${target}`);
  }
  // and the tenants themselves: a key lists, creates, changes and deletes none (its own included)
  for (const [method, target, body] of [
    ['GET', '', undefined],
    ['POST', '', { id: 'eve', plan: 'pro', spec: tictactoe }],
    ['GET', '/acme', undefined],
    ['PUT', '/acme', { plan: 'free' }],
    ['DELETE', '/acme', undefined],
    ['PUT', '/beta', { plan: 'pro' }],
    ['DELETE', '/beta', undefined],
  ]) {
    t.equal((await call(hosted, method, target, { token: beta, body })).status, 401, `${method} ${target || '/'} with beta's key`);
  }
  // not vacuous: the tenant's own key and the operator are answered
  t.equal((await call(hosted, 'GET', '/gamma/__mock/logs', { token: gamma })).status, 200);
  t.equal((await call(hosted, 'GET', '/acme/__mock/logs', { token: OPERATOR })).status, 200);
});

t.test("one tenant's mocks, overrides, logs, state and fixtures are not another's", async (t) => {
  const made = await call(hosted, 'POST', '/gamma/__mock/mocks', { token: gamma, body: { method: 'GET', path: '/only-gamma', response: { body: { tenant: 'gamma' } } } });
  t.equal(made.status, 201, made.text);
  t.same((await call(base, 'GET', '/api/v1/hosted-mocks/gamma/only-gamma')).json, { tenant: 'gamma' });
  t.equal((await call(base, 'GET', '/api/v1/hosted-mocks/acme/only-gamma')).status, 404, 'acme has no such mock');
  t.equal((await call(base, 'GET', '/only-gamma')).status, 404, 'nor has the host');
  t.same((await call(hosted, 'GET', '/acme/__mock/mocks', { token: OPERATOR })).json.data, []);
  // override rules through the spec's path
  const rules = [{ name: 'tag', enabled: true, match: { path: '/only-gamma' }, merge: { overridden: true } }];
  const put = await call(hosted, 'PUT', '/gamma/overrides', { token: gamma, body: rules });
  t.equal(put.status, 200, put.text);
  t.equal((await call(hosted, 'GET', '/gamma/overrides', { token: gamma })).json.data.length, 1);
  t.same((await call(hosted, 'GET', '/acme/overrides', { token: OPERATOR })).json.data, []);
  // logs
  await call(base, 'GET', '/api/v1/hosted-mocks/acme/v1/pets?marker=acme-only');
  const gammaLog = (await call(hosted, 'GET', '/gamma/__mock/logs', { token: gamma })).json.data;
  t.notOk(
    gammaLog.some((e) => e.query?.includes('acme-only')),
    "acme's requests are not in gamma's log",
  );
  const acmeLog = (await call(hosted, 'GET', '/acme/__mock/logs', { token: OPERATOR })).json.data;
  t.ok(
    acmeLog.some((e) => e.query === 'marker=acme-only' && e.path === '/v1/pets'),
    "acme's log has it, at acme's own path",
  );
  // fixtures: each tenant has a folder of its own
  const fixture = await call(hosted, 'POST', '/gamma/__mock/fixtures', {
    token: gamma,
    body: { fingerprint: { method: 'GET', path: '/f', query_params: {}, headers: {} }, status_code: 200, response_body: '{"f":1}' },
  });
  t.ok([200, 201].includes(fixture.status), fixture.text);
  t.equal((await call(hosted, 'GET', '/gamma/__mock/fixtures', { token: gamma })).json.data.length, 1);
  t.same((await call(hosted, 'GET', '/acme/__mock/fixtures', { token: OPERATOR })).json.data, []);
  t.ok(existsSync(path.join(dir, '.mock', 'tenants', 'gamma', 'fixtures')), "gamma's fixtures are in its folder");
  // the virtual clock
  const moved = await call(hosted, 'POST', '/gamma/__mock/time/set', { token: gamma, body: { time: '2030-01-01T00:00:00Z' } });
  t.equal(moved.status, 200, moved.text);
  t.notMatch((await call(hosted, 'GET', '/acme/__mock/time', { token: OPERATOR })).text, /2030-01-01/, "acme's clock did not move");
});

t.test("a plan's quotas: requests per minute, at once, runtime mocks, override rules, chaos profiles, keys, storage, experiment length", async (t) => {
  const statuses = [];
  for (let i = 0; i < 8; i++) statuses.push((await call(base, 'GET', '/api/v1/hosted-mocks/beta/board')).status);
  t.same(statuses.slice(6), [429, 429], `requests 7 and 8 of the minute: ${statuses}`);
  const refused = await call(base, 'GET', '/api/v1/hosted-mocks/beta/board');
  t.equal(refused.json.code, 'MOCK_ERR_TENANT_RATE_LIMITED');
  t.match(refused.json.detail, /max_requests_per_minute of plan free/);
  t.ok(Number(refused.headers.get('retry-after')) >= 1 && Number(refused.headers.get('retry-after')) <= 60);
  t.equal((await call(base, 'GET', '/api/v1/hosted-mocks/acme/v1/pets')).status, 200, 'another tenant is not limited by it');

  // one at a time on pro: a second request while the first is held by latency is refused
  t.equal((await call(hosted, 'POST', '/acme/__mock/config/latency', { token: OPERATOR, body: { enabled: true, base_ms: 600, jitter_ms: 0 } })).status, 200);
  const both = await Promise.all([call(base, 'GET', '/api/v1/hosted-mocks/acme/v1/pets'), sleep(150).then(() => call(base, 'GET', '/api/v1/hosted-mocks/acme/v1/pets'))]);
  t.same(
    both.map((a) => a.status),
    [200, 429],
  );
  t.equal(both[1].json.code, 'MOCK_ERR_TENANT_BUSY');
  t.equal((await call(hosted, 'POST', '/acme/__mock/config/latency', { token: OPERATOR, body: { enabled: false } })).status, 200);

  const first = await call(hosted, 'POST', '/beta/__mock/mocks', { token: beta, body: { method: 'GET', path: '/one', response: { body: { n: 1 } } } });
  t.equal(first.status, 201, first.text);
  const second = await call(hosted, 'POST', '/beta/__mock/mocks', { token: beta, body: { method: 'GET', path: '/two', response: { body: { n: 2 } } } });
  t.equal(second.status, 403);
  t.match(second.json.error, /max_scenarios 1/);
  const rules = (n) => Array.from({ length: n }, (_, i) => ({ name: `r${i}`, enabled: true, match: { path: '/one' }, merge: { [`r${i}`]: i } }));
  t.equal((await call(hosted, 'PUT', '/beta/overrides', { token: beta, body: rules(1) })).status, 200);
  const tooMany = await call(hosted, 'PUT', '/beta/overrides', { token: beta, body: rules(2) });
  t.equal(tooMany.status, 403);
  t.match(tooMany.json.error, /max_templates 1/);
  const key = await call(hosted, 'POST', '/beta/users', { token: beta, body: { username: 'ci', role: 'viewer' } });
  t.equal(key.status, 201, key.text);
  const third = await call(hosted, 'POST', '/beta/users', { token: beta, body: { username: 'more', role: 'viewer' } });
  t.equal(third.status, 403);
  t.match(third.json.error, /max_users 2/);
  const viewer = key.json.data.key;
  t.equal((await call(hosted, 'POST', '/beta/__mock/mocks', { token: viewer, body: { method: 'GET', path: '/v', response: {} } })).status, 403, 'a viewer key reads only');
  t.equal((await call(hosted, 'GET', '/beta/__mock/mocks', { token: viewer })).status, 200);
  t.equal((await call(hosted, 'DELETE', '/beta/users/ci', { token: beta })).status, 200);
  t.equal((await call(hosted, 'GET', '/beta/__mock/mocks', { token: viewer })).status, 401, 'a deleted key is refused');

  const profile = (name) => ({ name, description: 'p', chaos_config: { fault_injection: { enabled: true, http_errors: [500], http_error_probability: 0.5 } } });
  t.equal((await call(hosted, 'POST', '/acme/__mock/chaos/profiles', { token: OPERATOR, body: profile('one') })).status, 201);
  t.equal((await call(hosted, 'POST', '/acme/__mock/chaos/profiles', { token: OPERATOR, body: profile('two') })).status, 201, 'pro has no max_orchestrations');

  // storage: 1 MB for free (stores count JSON as UTF-16): a runtime mock of 600 KB fits, rules of 600 KB more do not
  const big = { method: 'GET', path: '/big', response: { body: { blob: 'x'.repeat(300_000) } } };
  t.equal((await call(hosted, 'DELETE', `/beta/__mock/mocks/${first.json.data.id}`, { token: beta })).status, 200);
  t.equal((await call(hosted, 'POST', '/beta/__mock/mocks', { token: beta, body: big })).status, 201);
  const full = await call(hosted, 'PUT', '/beta/overrides', { token: beta, body: [{ name: 'big', enabled: true, match: { path: '/big' }, merge: { more: 'y'.repeat(300_000) } }] });
  t.equal(full.status, 409, full.text.slice(0, 300));
  t.match(full.json.error, /max_storage_mb of plan free/);

  // experiments: pro's chaos stops after max_experiment_duration_secs (1 s)
  const on = await call(hosted, 'PUT', '/acme/__mock/chaos/config', { token: OPERATOR, body: { enabled: true, fault_injection: { enabled: true, http_errors: [503], http_error_probability: 1 } } });
  t.equal(on.status, 200, on.text);
  t.equal((await call(base, 'GET', '/api/v1/hosted-mocks/acme/v1/pets')).status, 503, 'chaos is on');
  let after;
  for (let waited = 0; waited < 5000; waited += 250) {
    await sleep(250);
    after = await call(base, 'GET', '/api/v1/hosted-mocks/acme/v1/pets');
    if (after.status === 200) break;
  }
  t.equal(after.status, 200, 'and off again on its own');
  t.match(server.stdout + server.stderr, /hosted mock "acme": chaos turned off after 1 s \(max_experiment_duration_secs of plan pro\)/);
});

t.test("a plan's permissions gate the admin actions", async (t) => {
  const cases = [
    ['GET', '/beta/__mock/logs', undefined, 'can_view_observability'],
    ['GET', '/beta/__mock/stats', undefined, 'can_view_observability'],
    ['PUT', '/beta/__mock/chaos/config', { enabled: true }, 'can_manage_resilience'],
    ['POST', '/beta/__mock/config/latency', { enabled: true, base_ms: 1 }, 'can_manage_resilience'],
    ['POST', '/beta/__mock/time/advance', { duration: '1h' }, 'can_use_advanced_features'],
    ['PUT', '/beta/__mock/continuum/enabled', { enabled: true }, 'can_use_advanced_features'],
    ['POST', '/beta/__mock/config/proxy', { enabled: true, upstream_url: 'http://127.0.0.1:9' }, 'can_integrate_external'],
    ['PUT', '/beta/__mock/fixtures/settings', { record: true }, 'can_integrate_external'],
    ['GET', '/beta/__mock/smoke/run', undefined, 'can_execute_scenarios'],
    // POST config changes several sections: each needs its own permission
    ['POST', '/beta/__mock/config', { proxy: { enabled: true, upstream_url: 'http://127.0.0.1:9' } }, 'can_integrate_external'],
    ['POST', '/beta/__mock/config', { latency: { enabled: true, base_ms: 1 } }, 'can_use_advanced_features|can_manage_resilience'],
  ];
  for (const [method, target, body, permission] of cases) {
    const answer = await call(hosted, method, target, { token: beta, body });
    t.equal(answer.status, 403, `${method} ${target}`);
    t.match(answer.json.error, new RegExp(`plan free does not allow ${permission}`));
  }
  // the same actions on pro, which allows them
  t.equal((await call(hosted, 'GET', '/acme/__mock/logs', { token: OPERATOR })).status, 200);
  t.equal((await call(hosted, 'POST', '/acme/__mock/time/advance', { token: OPERATOR, body: { duration: '1h' } })).status, 200);
  // a write from a page of another site never reaches a tenant
  const foreign = await call(hosted, 'POST', '/acme/__mock/mocks', { token: OPERATOR, body: { method: 'GET', path: '/z', response: {} }, headers: { origin: 'https://evil.example' } });
  t.equal(foreign.status, 403);
  t.match(foreign.json.error, /cross-site request guard/);
  // fetch sends its own Host: a raw request names another
  const rebound = await exactRequest(base, 'GET', '/api/v1/hosted-mocks', { headers: { host: 'evil.example', 'x-mock-management-token': OPERATOR } });
  t.equal(rebound.status, 403, 'DNS rebinding guard');
});

t.test('a tenant is changed (plan, description) and deleted; its folder and state go with it', async (t) => {
  const changed = await call(hosted, 'PUT', '/gamma', { token: OPERATOR, body: { spec: tictactoe, plan: 'free' } });
  t.equal(changed.status, 200, changed.text);
  t.match(changed.json.data, { plan: 'free', revision: 2 });
  t.equal((await call(base, 'GET', '/api/v1/hosted-mocks/gamma/board')).status, 401, 'serves the new description (its security)');
  t.same((await call(base, 'GET', '/api/v1/hosted-mocks/gamma/only-gamma')).json, { tenant: 'gamma', overridden: true }, 'its runtime mocks and rules outlive the change');
  t.equal((await call(hosted, 'PUT', '/gamma', { token: gamma, body: { plan: 'pro' } })).status, 401, "a tenant's own key cannot change its plan");
  t.equal((await call(hosted, 'DELETE', '/gamma', { token: gamma })).status, 401);
  const deleted = await call(hosted, 'DELETE', '/gamma', { token: OPERATOR });
  t.equal(deleted.status, 200);
  t.equal((await call(base, 'GET', '/api/v1/hosted-mocks/gamma/only-gamma')).json.code, 'MOCK_ERR_TENANT_NOT_FOUND');
  t.notOk(existsSync(path.join(dir, '.mock', 'tenants', 'gamma')), 'its folder is gone');
  const again = await call(hosted, 'POST', '', { token: OPERATOR, body: { id: 'gamma', plan: 'free', spec: tictactoe } });
  t.equal(again.status, 201, again.text);
  t.equal((await call(base, 'GET', '/api/v1/hosted-mocks/gamma/only-gamma')).status, 404, 'a new gamma starts with nothing of the old one');
});

t.test('hosted mode without a management token, or with a declared tenant of no plan, does not start', async (t) => {
  const bare = tmpdir();
  copyFileSync(path.join(root, 'examples', 'petstore.yaml'), path.join(bare, 'petstore.yaml'));
  writeFileSync(path.join(bare, 'mock.yaml'), PLANS);
  const noToken = await runMock(['serve', '--http-port', '0'], { cwd: bare });
  t.equal(noToken.code, 1);
  t.match(noToken.stderr, /tenancy: hosted mode needs admin.management_token \(MOCK_MANAGEMENT_TOKEN\)/);
  const validated = await runMock(['config', 'validate'], { cwd: bare });
  t.match(validated.stdout + validated.stderr, /tenancy: hosted mode needs admin.management_token .*mock serve refuses to start so/, 'mock config validate says so before');
  writeFileSync(path.join(bare, 'mock.yaml'), `${PLANS.replace('plan: pro', 'plan: gold')}admin:\n  management_token: ${OPERATOR}\n`);
  const noPlan = await runMock(['serve', '--http-port', '0'], { cwd: bare });
  t.equal(noPlan.code, 1);
  t.match(noPlan.stderr, /tenancy.tenants.acme.plan: gold is not a plan of tenancy.plans \(free, pro\)/);
});

t.test('two instances sharing Redis (one on node:http) serve the same tenants, keys, mocks and minute', async (t) => {
  const redis = await redisForFile(t);
  const shared = tmpdir();
  copyFileSync(path.join(root, 'examples', 'petstore.yaml'), path.join(shared, 'petstore.yaml'));
  writeFileSync(path.join(shared, 'mock.yaml'), `${PLANS}admin:\n  management_token: ${OPERATOR}\nstate:\n  store: redis\n  redis_url: ${redis.url}\n`);
  const one = await startMock([], { cwd: shared });
  t.teardown(() => one.stop());
  const two = await startMock(['--http-backend', 'node'], { cwd: shared });
  t.teardown(() => two.stop());
  const created = await call(`${one.url}/api/v1/hosted-mocks`, 'POST', '', { token: OPERATOR, body: { id: 'shared', plan: 'free', spec: tictactoe } });
  t.equal(created.status, 201, created.text);
  const key = created.json.data.key;
  let listed;
  for (let waited = 0; waited < 15_000; waited += 250) {
    listed = await call(`${two.url}/api/v1/hosted-mocks`, 'GET', '', { token: OPERATOR });
    if (listed.json.data.some((m) => m.id === 'shared')) break;
    await sleep(250);
  }
  t.ok(
    listed.json.data.some((m) => m.id === 'shared'),
    'the other instance built and opened it',
  );
  const made = await call(`${two.url}/api/v1/hosted-mocks`, 'POST', '/shared/__mock/mocks', { token: key, body: { method: 'GET', path: '/both', response: { body: { both: true } } } });
  t.equal(made.status, 201, `the owner key works on the other instance: ${made.text}`);
  t.same((await call(one.url, 'GET', '/api/v1/hosted-mocks/shared/both')).json, { both: true }, 'the mock made on one answers on the other');
  const statuses = [];
  for (let i = 0; i < 7; i++) statuses.push((await call(i % 2 === 0 ? one.url : two.url, 'GET', '/api/v1/hosted-mocks/shared/both')).status);
  t.same(statuses.filter((s) => s === 429).length, 2, `one minute's count for both instances: ${statuses}`);
});
