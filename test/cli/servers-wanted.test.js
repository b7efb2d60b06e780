// What a folder asks `mock serve` to start: a WebSocket configuration alone is a project, and a port
// set in the environment or mock.yaml says where a server listens, not whether one starts.
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { runCli, startCommand } from '../helpers/cli.js';
import { connect } from '../helpers/websocket.js';
import { tinySpec } from './fixtures/run-cli.js';

const WS_ONLY = "websocket:\n  routes:\n    - { path: /echo, echo: true }\n    - { path: '/hi/{name}', on_open: ['hi {{request.path.name}}'] }\n";

/** A port nothing listens on (bound, then released). */
function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on the port. */
function listening(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

// every run of the file side by side: each is a separate project
const dirs = t.testdir({
  wsOnly: { 'mock.yaml': WS_ONLY },
  wsFromFile: { 'mock.yaml': `server: { ws_port: 0, bind: 127.0.0.1 }\n${WS_ONLY}` },
  portsAlone: { 'api.json': tinySpec(1) },
  flagOnly: {},
  grpcFlag: { 'api.json': tinySpec(1) },
  empty: {},
});
const at = (name) => path.join(dirs, name);
const [grpcPort, wsPort, graphqlPort] = await Promise.all([freePort(), freePort(), freePort()]);
writeFileSync(path.join(at('portsAlone'), 'mock.yaml'), `specs: [api.json]\nserver: { graphql_port: ${graphqlPort} }\n`);
const wsReady = /WebSocket on (ws:\/\/\S+)/;
const [wsOnly, wsFromFile, portsAlone, wsFlag, grpcFlag, nothing, validated] = await Promise.all([
  startCommand(['serve', '--ws-port', '0', '--host', '127.0.0.1'], wsReady, { cwd: at('wsOnly') }),
  startCommand(['serve'], wsReady, { cwd: at('wsFromFile') }),
  startCommand(['serve', '--http-port', '0', '--host', '127.0.0.1'], /serving on (http:\/\/[^/\s]+)/, {
    cwd: at('portsAlone'),
    env: { MOCK_GRPC_PORT: String(grpcPort), MOCK_WS_PORT: String(wsPort), MOCK_LOG_LEVEL: 'info' },
  }),
  startCommand(['serve', '--ws-port', '0', '--host', '127.0.0.1'], wsReady, { cwd: at('flagOnly') }),
  runCli(['serve', '--spec', 'api.json', '--http-port', '0', '--grpc-port', '0'], { cwd: at('grpcFlag') }),
  runCli(['serve'], { cwd: at('empty'), env: { MOCK_WS_PORT: '3001', MOCK_GRPC_PORT: '50051' } }),
  runCli(['config', 'validate'], { cwd: at('wsOnly') }),
]);
t.teardown(() => Promise.all([wsOnly, wsFromFile, portsAlone, wsFlag].map((server) => server.stop())));

t.test('a folder with only a websocket section in mock.yaml serves it (--ws-port says where)', async (t) => {
  t.notMatch(wsOnly.stdout, /serving on/, 'no HTTP mock without a description');
  const echo = await connect(`${wsOnly.url}/echo`);
  echo.send('ping');
  t.equal((await echo.next()).text, 'ping', 'the echo route answers');
  echo.close();
  const hi = await connect(`${wsOnly.url}/hi/ann`);
  t.equal((await hi.next()).text, 'hi ann', 'the scripted route answers');
  hi.close();
});

t.test('mock config validate does not ask a WebSocket project for a description', async (t) => {
  t.equal(validated.code, 0, validated.stderr);
  t.match(validated.stdout, /^mock\.yaml: valid\n/);
  t.notMatch(validated.stdout, /needs --spec|no specs: section/);
});

t.test('without --ws-port the websocket section alone serves on the port mock.yaml gives', async (t) => {
  const echo = await connect(`${wsFromFile.url}/echo`);
  echo.send('pong');
  t.equal((await echo.next()).text, 'pong');
  echo.close();
});

t.test('ports in the environment and mock.yaml without what their servers serve start nothing and stop nothing', async (t) => {
  const server = portsAlone;
  t.equal((await fetch(`${server.url}/things1`)).status, 200, 'the HTTP mock serves');
  t.notMatch(server.stdout, /WebSocket on|gRPC on|GraphQL on/, 'no other server');
  for (const port of [grpcPort, wsPort, graphqlPort]) t.notOk(await listening(port), `nothing listens on ${port}`);
  const notes = [
    new RegExp(`MOCK_WS_PORT \\(${wsPort}\\) says where a WebSocket server would listen; none starts`),
    new RegExp(`server\\.graphql_port in mock\\.yaml \\(${graphqlPort}\\) says where a GraphQL server would listen; none starts`),
    new RegExp(`MOCK_GRPC_PORT \\(${grpcPort}\\) says where a gRPC server would listen; none starts`),
  ];
  // the log destination is asynchronous: the lines may follow "serving on"
  for (let i = 0; i < 50 && !notes.every((note) => note.test(server.stdout)); i++) await sleep(100);
  for (const note of notes) t.equal(server.stdout.split('\n').filter((line) => note.test(line)).length, 1, `one line: ${note}`);
  t.notMatch(server.stdout + server.stderr, /proto folder/, 'no complaint about a proto folder');
});

t.test('an explicit --grpc-port or --ws-port still asks for its server', async (t) => {
  t.equal(grpcFlag.code, 1);
  t.equal(
    grpcFlag.stderr,
    "gRPC proto folder not found: proto (checked grpc.proto_dir's default, as --grpc-port asks for the gRPC server); create it with your .proto files, or name the folder holding them with --proto-dir or grpc.proto_dir\n",
  );
  const echo = await connect(`${wsFlag.url}/anything`);
  echo.send('x');
  t.equal((await echo.next()).text, 'x', '--ws-port alone serves an echo');
  echo.close();
});

t.test('nothing to serve names every way to give something, WebSocket included', async (t) => {
  t.equal(nothing.code, 1);
  t.match(nothing.stderr, /^no spec given: .*--ws-port <port> or websocket\.routes in mock\.yaml to mock WebSocket/);
});
