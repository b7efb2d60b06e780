// Admin logins across the workers of `mock serve --workers 2` (issue 38): the admin API's sessions
// live in the stores the primary holds for every worker, so a login made through one worker is
// refreshed, logged out and revoked through the other; a refresh token reused on either revokes the
// login on both; a user created through one worker logs in through the other; the login throttle
// counts the failures made on both. Two kept-alive connections, one to each worker (GET
// /__mock/health names the worker a connection reached), make every step land where the test says.
import t from 'tap';
import http from 'node:http';
import { startMock, tmpdir } from '../helpers/cli.js';
import { writeOrdersProject } from '../helpers/shared-state.js';

const dir = tmpdir();
writeOrdersProject(dir);
const server = await startMock(['--config', 'mock.yaml', '--workers', '2', '--admin-embed'], {
  cwd: dir,
  env: { MOCK_ADMIN_AUTH_ENABLED: 'true', JWT_SECRET: '', MOCK_DISABLE_DEV_SEED_USERS: undefined },
});
t.teardown(() => server.stop());

/** One request on the agent's connection; answers the status, the JSON and the socket it went on. */
function send(agent, method, target, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(`${server.url}${target}`, { method, agent, headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, text, json: /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(text) : undefined, socket: res.socket }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A kept-alive connection to each worker, by number: new connections until both workers have one
 * (the kernel picks the worker of each). Every request of a worker's `call` goes on that one
 * connection; one that went on another (the connection closed) fails the test rather than land
 * on a worker the test did not mean.
 */
async function connections() {
  const found = new Map();
  for (let tries = 0; found.size < 2 && tries < 64; tries++) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const health = await send(agent, 'GET', '/__mock/health');
    if (found.has(health.json.worker)) {
      agent.destroy();
      continue;
    }
    const call = async (method, target, body, headers) => {
      const answer = await send(agent, method, target, body, headers);
      if (answer.socket !== health.socket) throw new Error(`the connection to worker ${health.json.worker} closed; run the test again`);
      return answer;
    };
    found.set(health.json.worker, { agent, call });
  }
  t.teardown(() => [...found.values()].forEach(({ agent }) => agent.destroy()));
  return [found.get(1).call, found.get(2).call];
}

const [one, two] = await connections();
const bearer = (token) => ({ authorization: `Bearer ${token}` });
const login = (worker, username, password) => worker('POST', '/__mock/auth/login', { username, password });
/** An admin write (reads need no token). */
const write = (worker, token) => worker('POST', '/__mock/logs/clear', undefined, bearer(token));
const refresh = (worker, session) => worker('POST', '/__mock/auth/refresh', { refresh_token: session.refresh_token });

t.test('a login made through worker 1 refreshes through worker 2, and a refresh token reused on either revokes the login on both', async (t) => {
  const first = await login(one, 'admin', 'admin-dev-password');
  t.equal(first.status, 200, first.json.error ?? 'logged in through worker 1');
  const second = await refresh(two, first.json.data);
  t.equal(second.status, 200, second.json.error ?? 'worker 2 rotates the refresh token worker 1 issued');
  const third = await refresh(one, second.json.data);
  t.equal(third.status, 200, 'and worker 1 the one worker 2 issued');
  for (const worker of [one, two]) t.equal((await write(worker, third.json.data.access_token)).status, 200, 'the newest access token works on both');

  const reused = await refresh(two, first.json.data);
  t.equal(reused.status, 401);
  t.match(reused.json.error, /already used, so every token of its login is revoked/, 'worker 2 knows the token was used on worker 1');
  for (const worker of [one, two]) {
    const refused = await write(worker, third.json.data.access_token);
    t.equal(refused.status, 401);
    t.match(refused.json.error, /a refresh token of its login was used twice/, 'the login is revoked on both workers');
  }
  t.equal((await refresh(one, third.json.data)).status, 401, 'its newest refresh token too');
});

t.test('one refresh token taken on both workers at once: one rotates it, the other finds it used', async (t) => {
  const session = (await login(two, 'editor', 'editor-dev-password')).json.data;
  const answers = await Promise.all([refresh(one, session), refresh(two, session)]);
  t.same(answers.map((a) => a.status).sort(), [200, 401], answers.map((a) => a.json.error).join('\n'));
  const winner = answers.find((a) => a.status === 200).json.data;
  t.match(answers.find((a) => a.status === 401).json.error, /was already used, so every token of its login is revoked/, 'the other worker saw it used, a reuse');
  for (const worker of [one, two]) t.equal((await refresh(worker, winner)).status, 401, "so the winner's login is revoked as well");
});

t.test('a logout through one worker ends the login on the other', async (t) => {
  const session = (await login(two, 'admin', 'admin-dev-password')).json.data;
  t.equal((await write(one, session.access_token)).status, 200);
  const out = await one('POST', '/__mock/auth/logout', undefined, bearer(session.access_token));
  t.equal(out.status, 200, out.json.error ?? 'logged out through worker 1');
  const refused = await write(two, session.access_token);
  t.equal(refused.status, 401, 'the access token is refused by the worker that issued it');
  t.match(refused.json.error, /revoked by logout/);
  t.equal((await refresh(two, session)).status, 401, 'and so is its refresh token');
});

t.test('a user created through one worker logs in through the other; deleted there, it is gone from both', async (t) => {
  const admin = (await login(one, 'admin', 'admin-dev-password')).json.data.access_token;
  const created = await one('POST', '/__mock/auth/users', { username: 'kim', password: 'kim-password-1', role: 'editor' }, bearer(admin));
  t.equal(created.status, 201, created.json.error ?? 'created through worker 1');
  t.equal((await two('POST', '/__mock/auth/users', { username: 'kim', password: 'other-password', role: 'viewer' }, bearer(admin))).status, 409, 'the name is taken on worker 2');
  const kim = await login(two, 'kim', 'kim-password-1');
  t.equal(kim.status, 200, kim.json.error ?? 'logged in through worker 2');
  t.same(kim.json.data.user, { username: 'kim', role: 'editor' });
  t.ok(
    (await one('GET', '/__mock/auth/users', undefined, bearer(admin))).json.data.some((u) => u.username === 'kim'),
    'listed by worker 1',
  );
  t.equal((await two('DELETE', '/__mock/auth/users/kim', undefined, bearer(admin))).status, 200);
  t.equal((await login(one, 'kim', 'kim-password-1')).status, 401, 'worker 1 refuses the deleted user');
  t.equal((await one('GET', '/__mock/auth/me', undefined, bearer(kim.json.data.access_token))).status, 401, 'and its token');

  t.equal((await one('DELETE', '/__mock/auth/users/viewer', undefined, bearer(admin))).status, 200, 'a seeded user deleted through worker 1');
  t.equal((await login(two, 'viewer', 'viewer-dev-password')).status, 401, 'cannot log in through worker 2, which seeded it too');
});

// last: five failures lock the client's address too
t.test('the login throttle counts the failures made on both workers', async (t) => {
  // a success clears this address's failures of the tests before
  t.equal((await login(two, 'admin', 'admin-dev-password')).status, 200);
  for (const worker of [one, two, one, two, one]) t.equal((await login(worker, 'editor', 'wrong-password')).status, 401);
  for (const worker of [one, two]) {
    const locked = await login(worker, 'editor', 'editor-dev-password');
    t.equal(locked.status, 429, 'five failures spread over both workers lock the user on each');
  }
});
