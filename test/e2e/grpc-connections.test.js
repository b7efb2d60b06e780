// core.max_connections holds for gRPC: the server counts the HTTP/2 connections it holds, and a
// call on a connection beyond the limit is refused (MOCK_ERR_CHAOS_CONNECTION_LIMIT), through the
// real CLI and @grpc/grpc-js clients that each open a connection of their own.
import t from 'tap';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { corpus, startCommand, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const dir = tmpdir();
mkdirSync(path.join(dir, 'proto'));
cpSync(path.join(corpus, 'proto', 'examples', 'helloworld.proto'), path.join(dir, 'proto', 'helloworld.proto'));
writeFileSync(path.join(dir, 'mock.yaml'), 'seed: 3\nserver: { grpc_port: 0, bind: 127.0.0.1 }\ncore: { max_connections: 2 }\ngrpc: { proto_dir: proto }\n');
const server = await startCommand(['serve', '--admin', '--admin-port', '0'], /gRPC on (\S+)/, { cwd: dir });
t.teardown(() => server.stop());
const adminUrl = /admin on (http:\/\/\S+)/.exec(server.stdout)?.[1];

const { helloworld } = grpc.loadPackageDefinition(loadSync(path.join(dir, 'proto', 'helloworld.proto'), { keepCase: true }));
// a subchannel pool of its own: grpc-js clients otherwise share one connection per target
const client = () => new helloworld.Greeter(server.url, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
const hello = (c) => new Promise((resolve) => c.SayHello({ name: 'x' }, (error, reply) => resolve({ error, reply })));

t.test('calls on the connections within the limit are answered; on one beyond it, refused', async (t) => {
  const [a, b, c] = [client(), client(), client()];
  t.teardown(() => [a, b, c].forEach((x) => x.close()));
  t.error((await hello(a)).error, 'the first connection');
  t.error((await hello(b)).error, 'the second connection');
  const refused = await hello(c);
  t.equal(refused.error?.code, grpc.status.RESOURCE_EXHAUSTED, 'the third connection: RESOURCE_EXHAUSTED');
  t.equal(refused.error?.details, 'connection limit reached: the mock server takes at most 2 connections');
  const logs = (await (await fetch(`${adminUrl}/__mock/logs?limit=20`)).json()).data;
  t.match(
    logs.find((e) => e.grpc?.status === 'RESOURCE_EXHAUSTED'),
    { path: '/helloworld.Greeter/SayHello', status_code: 503, chaos: { fault: 'connection_limit' } },
    'the refusal is in the request log',
  );

  a.close();
  // once a connection is gone, the one beyond the limit is within it
  const answered = await until(async () => {
    const { error } = await hello(c);
    return error === null ? true : undefined;
  });
  t.ok(answered, 'the third connection is answered once the first closed');
  t.error((await hello(b)).error, 'the second connection still is');
});
