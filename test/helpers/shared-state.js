// What the shared-state tests (state.store redis: redis-store, cluster, the store contract) start:
// a real redis-server they can kill and start again, free ports, and a project whose state machine
// moves orders, so that a move made on one instance can be read on another.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { tmpdir } from './cli.js';

/**
 * The Redis of a test file that needs one, killed when the file ends (`t`: its root test). Where
 * redis-server is not installed the file is skipped, except in CI, which installs it: there the
 * start fails the file.
 */
export async function redisForFile(t) {
  const installed = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error === undefined;
  if (!installed && process.env.CI !== 'true') {
    t.skip('redis-server is not installed (apt-get install -y redis-server)');
    process.exit(0);
  }
  const redis = await RedisServer.start();
  t.teardown(() => redis.kill());
  return redis;
}

/** A port nothing listens on now. */
export const freePort = () =>
  new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/**
 * redis-server on a free loopback port, started again in the same folder by start() after a kill:
 * appendfsync always, so a SIGKILL loses nothing it answered; DEBUG SLEEP allowed from loopback (a
 * Redis slow to answer, on demand). Killed when the test process exits, whatever happens.
 */
export class RedisServer {
  static async start() {
    const server = new RedisServer(await freePort());
    await server.start();
    process.on('exit', () => server.process?.kill('SIGKILL'));
    return server;
  }

  constructor(port) {
    this.port = port;
    this.url = `redis://127.0.0.1:${port}`;
    this.dir = tmpdir();
    this.process = undefined;
  }

  async start() {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', this.dir, '--enable-debug-command', 'local'];
    this.process = spawn('redis-server', args, { stdio: 'ignore' });
    while (!(await accepts(this.port))) await new Promise((r) => setTimeout(r, 50));
  }

  /** SIGKILL; resolves once it is gone. */
  async kill() {
    const gone = new Promise((r) => this.process.once('exit', r));
    this.process.kill('SIGKILL');
    await gone;
  }
}

const idParameter = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];

/**
 * Writes api.json and mock.yaml into `dir`: POST /orders creates an order (pending), PUT
 * /orders/{id}/process moves it (processing), GET /orders/{id} reads it; chaos on (nothing
 * injected until the admin API sets it); `paths`: more operations of the description.
 */
export function writeOrdersProject(dir, paths = {}) {
  const ok = (example) => ({ 200: { description: 'ok', ...(example === undefined ? {} : { content: { 'application/json': { example } } }) } });
  const api = {
    openapi: '3.0.3',
    info: { title: 'orders', version: '1' },
    paths: {
      '/orders/{id}': { get: { parameters: idParameter, responses: ok({ from: 'description' }) } },
      '/orders/{id}/process': { put: { parameters: idParameter, responses: ok() } },
      '/orders': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { 201: { description: 'ok' } } } },
      ...paths,
    },
  };
  writeFileSync(path.join(dir, 'api.json'), JSON.stringify(api));
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    `specs: [./api.json]
observability:
  chaos: { enabled: true }
core:
  stateful:
    enabled: true
    state_machines:
      - name: orders
        initial_state: initial
        resource_id_extract: { type: composite, extractors: [{ type: path_param, param: id }, { type: json_path, path: $.id }] }
        states:
          - { name: pending, response: { status_code: 201, body_template: { id: "{{resource_id}}", status: pending } } }
          - { name: processing, response: { body_template: { id: "{{resource_id}}", status: processing } } }
        transitions:
          - { method: POST, path_pattern: /orders, from_state: initial, to_state: pending }
          - { method: PUT, path_pattern: "/orders/{id}/process", from_state: pending, to_state: processing }
          - { method: GET, path_pattern: "/orders/{id}", from_state: pending, to_state: pending }
          - { method: GET, path_pattern: "/orders/{id}", from_state: processing, to_state: processing }
`,
  );
}
