// Admin logins across the workers of `mock serve --workers 2` (issue 38): the admin API's sessions
// live in the stores the primary holds for every worker, so a login made through one worker is
// refreshed, logged out and revoked through the other; a refresh token reused on either revokes the
// login on both; a user created through one worker logs in through the other; the login throttle
// counts the failures made on both. Two kept-alive connections, one to each worker (GET
// /__mock/health names the worker a connection reached), make every step land where the test says.
import t from 'tap';
import http from 'node:http';
import { startMock, tmpdir } from '../helpers/cli.js';
import { adminSessionScenarios } from '../helpers/admin-sessions.js';
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
const side = (name, worker) => ({ name, call: (method, endpoint, body, token) => worker(method, `/__mock/${endpoint}`, body, token === undefined ? {} : { authorization: `Bearer ${token}` }) });
const workerOne = side('worker 1', one);
const workerTwo = side('worker 2', two);
const admin = { username: 'admin', password: 'admin-dev-password' };

t.test('a seeded user deleted through worker 1 cannot log in through worker 2, which seeded it too', async (t) => {
  const token = (await workerOne.call('POST', 'auth/login', admin)).json.data.access_token;
  t.equal((await workerOne.call('DELETE', 'auth/users/viewer', undefined, token)).status, 200);
  t.equal((await workerTwo.call('POST', 'auth/login', { username: 'viewer', password: 'viewer-dev-password' })).status, 401);
});

adminSessionScenarios(t, { one: workerOne, two: workerTwo, admin, second: { username: 'editor', password: 'editor-dev-password' } });
