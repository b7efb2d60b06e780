// {{plugin:…}} tokens answer in every protocol's templates, not only the HTTP mock's: a WebSocket
// route's on_open message and reply, a GraphQL override and a gRPC method's response, each through
// a real client against one `mock serve` with the example template-function plugin installed.
import t from 'tap';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import WebSocket from 'ws';
import { corpus, root, runMock, startCommand, tmpdir } from '../helpers/cli.js';

const project = tmpdir();
mkdirSync(path.join(project, 'proto'));
cpSync(path.join(corpus, 'proto', 'examples', 'helloworld.proto'), path.join(project, 'proto', 'helloworld.proto'));
writeFileSync(
  path.join(project, 'mock.yaml'),
  `server: { ws_port: 0, graphql_port: 0, grpc_port: 0, bind: 127.0.0.1 }
websocket:
  routes:
    - path: /shout
      on_open: ["{{plugin:upper:upper('welcome')}}"]
      messages:
        - { match: "^say (?<word>\\\\w+)$", reply: "{{plugin:upper:upper('loud')}}" }
graphql:
  schema: ${JSON.stringify(path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql'))}
  overrides:
    User:
      bio: "{{plugin:upper:upper('quiet')}}"
grpc:
  proto_dir: proto
  methods:
    - method: helloworld.Greeter/SayHello
      response: { message: "{{plugin:upper:upper('hello')}}" }
`,
);

t.before(async () => {
  const res = await runMock(['plugin', 'install', path.join(root, 'plugins/examples/template-function/upper.wasm')], { cwd: project });
  if (res.code !== 0) throw new Error(`install: ${res.stdout}${res.stderr}`);
});

let server;
t.before(async () => {
  // the gRPC line comes last, in the same write as the others
  server = await startCommand(['serve'], /gRPC on (\S+)/, { cwd: project });
});
t.teardown(() => server?.stop());
const address = (pattern) => pattern.exec(server.stdout)?.[1];

t.test('WebSocket: a message sent on opening and a reply', async (t) => {
  const ws = new WebSocket(`${address(/WebSocket on (ws:\/\/\S+)/)}/shout`);
  t.teardown(() => ws.terminate());
  const messages = [];
  const next = () => new Promise((resolve) => ws.once('message', (data) => resolve(String(data))));
  messages.push(await next());
  ws.send('say it');
  messages.push(await next());
  t.same(messages, ['WELCOME', 'LOUD']);
});

t.test('GraphQL: an override', async (t) => {
  const res = await fetch(address(/GraphQL on (http:\/\/\S+)/), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ me { bio } }' }),
  });
  const body = await res.json();
  t.equal(res.status, 200, JSON.stringify(body));
  t.equal(body.data?.me?.bio, 'QUIET');
});

t.test("gRPC: a method's response", async (t) => {
  const loaded = grpc.loadPackageDefinition(loadSync('helloworld.proto', { includeDirs: [path.join(project, 'proto')] }));
  const greeter = new loaded.helloworld.Greeter(address(/gRPC on (\S+)/), grpc.credentials.createInsecure());
  t.teardown(() => greeter.close());
  const response = await new Promise((resolve, reject) => greeter.SayHello({ name: 'Ada' }, (error, reply) => (error ? reject(error) : resolve(reply))));
  t.equal(response.message, 'HELLO');
});
