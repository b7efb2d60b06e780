// One request must never end the process: a malformed percent-encoding sent to every port `mock
// serve` opens (the HTTP mock and its management router, the admin API, metrics, WebSocket,
// GraphQL, gRPC and its HTTP bridge), on both HTTP backends, gets an answer, and every server
// serves on. And the last resort: an exception or rejection nothing handled is logged, not fatal.
import t from 'tap';
import http2 from 'node:http2';
import net from 'node:net';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, startCommand, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const MALFORMED = ['/%', '/%zz', '/%E0%A4%A', '/v1/pets/%', '/%C0%AF', '/a%00b/%'];

/** A planted fault: on SIGUSR2 the process throws and rejects where nothing catches either. */
const dir = tmpdir();
const fault = path.join(dir, 'plant-fault.mjs');
writeFileSync(
  fault,
  `process.on('SIGUSR2', () => {
  setImmediate(() => { throw new Error('planted exception'); });
  Promise.reject(new Error('planted rejection'));
});
`,
);

// one project for both backends (--http-backend picks one): the second start finds the build of
// the first fresh (the description, the schema and the protos unchanged) and serves it as it is
const project = tmpdir();
mkdirSync(path.join(project, 'proto'));
cpSync(path.join(root, 'test', 'fixtures', 'grpc', 'library'), path.join(project, 'proto', 'library'), { recursive: true });
writeFileSync(
  path.join(project, 'mock.yaml'),
  `specs: [${JSON.stringify(path.join(root, 'examples', 'petstore.yaml'))}]
server: { bind: 127.0.0.1, ws_port: 0, graphql_port: 0, grpc_port: 0 }
websocket: { routes: [{ path: '/echo/{any}', echo: true }] }
graphql: { schema: ${JSON.stringify(path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql'))} }
grpc: { http_bridge: { enabled: true, port: 0 } }
`,
);

/** One raw HTTP/1.1 request: resolves with the status code, or rejects when none comes within 5 s. */
function raw(url, target, extra = '') {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${extra}Connection: close\r\n\r\n`));
    let answer = '';
    socket.setTimeout(5_000, () => {
      socket.destroy();
      reject(new Error(`no answer to GET ${target} on ${url} in 5 s`));
    });
    socket.on('data', (d) => {
      answer += d;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status !== null) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`GET ${target} on ${url}: the connection closed without an answer`)));
  });
}

/** A gRPC call to `:path` over a raw HTTP/2 stream: resolves with its grpc-status. */
function grpcStatus(address, callPath) {
  return new Promise((resolve, reject) => {
    const client = http2.connect(`http://${address}`);
    client.on('error', reject);
    const stream = client.request({ ':method': 'POST', ':path': callPath, 'content-type': 'application/grpc', te: 'trailers' });
    let status;
    const take = (headers) => {
      if (headers['grpc-status'] !== undefined) status = Number(headers['grpc-status']);
    };
    stream.on('response', take);
    stream.on('trailers', take);
    stream.on('close', () => {
      client.close();
      if (status === undefined) reject(new Error(`no grpc-status for ${callPath}`));
      else resolve(status);
    });
    stream.on('error', () => undefined);
    stream.end(Buffer.alloc(5));
    stream.resume();
  });
}

for (const backend of ['uws', 'node']) {
  t.test(`on ${backend}`, async (t) => {
    const server = await startCommand(
      ['serve', '--http-backend', backend, '--http-port', '0', '--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0'],
      /gRPC HTTP bridge on (http:\/\/\S+)/,
      { cwd: project, env: { MOCK_LOG_LEVEL: 'info', NODE_OPTIONS: `--import=${fault}` } },
    );
    t.teardown(() => server.stop());
    const found = (pattern) => pattern.exec(server.stdout)[1];
    const ports = {
      mock: found(/serving on (http:\/\/[^/\s]+)/),
      admin: found(/admin on (http:\/\/\S+)/),
      metrics: found(/metrics on (http:\/\/\S+)\/metrics/),
      websocket: found(/WebSocket on ws:\/\/(\S+)/).replace(/^/, 'http://'),
      graphql: found(/GraphQL on (http:\/\/[^/\s]+)/),
      bridge: server.url,
    };
    const grpc = found(/gRPC on (\S+)/);

    const paths = {
      mock: [...MALFORMED, '/__mock/mocks/%', '/__mock/mocks/%zz', '/v1/pets?limit=%'],
      admin: [...MALFORMED, '/__mock/mocks/%', '/__mock/fixtures/%E0%A4%A', '/api/v2/time/%', '/__mock/state/%/x'],
      metrics: [...MALFORMED, '/metrics?x=%'],
      websocket: MALFORMED,
      graphql: [...MALFORMED, '/graphql?query=%', '/graphql/%'],
      bridge: [...MALFORMED, '/v1/shelves/%/books/%zz', '/v1/books/%E0%A4%A', '/library.v1.Library/%'],
    };
    for (const [name, list] of Object.entries(paths)) {
      for (const target of list) {
        // 4xx mostly; a server that never decodes what it was sent may answer it (metrics ignore the query)
        const status = await raw(ports[name], target);
        t.ok(status < 500, `${name}: GET ${target} answers ${status}`);
      }
    }
    const upgrade = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';
    for (const [name, target] of [['websocket', '/echo/%'], ['websocket', '/%zz'], ['admin', '/__mock/ws%'], ['graphql', '/graphql%']]) {
      const status = await raw(ports[name], target, upgrade);
      t.ok((status >= 400 && status < 500) || status === 101, `${name}: an upgrade to ${target} answers ${status}`);
    }
    for (const callPath of ['/%', '/library.v1.Library/%zz', '/%E0%A4%A/x']) t.equal(await grpcStatus(grpc, callPath), 12, `gRPC: ${callPath} is UNIMPLEMENTED`);

    t.equal(server.child.exitCode, null, 'the process is alive');
    t.equal((await fetch(`${ports.mock}/v1/pets/1`)).status, 200, 'the mock serves');
    t.equal((await fetch(`${ports.admin}/__mock/health`)).status, 200, 'the admin serves');
    t.equal((await fetch(`${ports.metrics}/metrics`)).status, 200, 'metrics serve');
    t.equal((await fetch(`${ports.bridge}/v1/shelves/1/books/2`)).status, 200, 'the bridge serves');
    t.equal((await fetch(`${ports.graphql}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })).status, 200, 'GraphQL serves');

    server.child.kill('SIGUSR2');
    await until(() => /planted rejection/.test(server.stdout) && /planted exception/.test(server.stdout), 5_000, 'both planted faults in the log');
    t.match(server.stdout, /a promise was rejected and nothing handled it; mock keeps serving/, 'the rejection is logged');
    t.match(server.stdout, /an exception was thrown and nothing caught it; mock keeps serving/, 'the exception is logged');
    t.equal(server.child.exitCode, null, 'the process is still alive');
    t.equal((await fetch(`${ports.mock}/v1/pets/1`)).status, 200, 'and the mock still serves');
  });
}
