// The uWS adapter counts open connections (servers[].active_connections) and names each request's
// client in the request log, also when it skips reading the address because every open connection
// comes from one address: connections from 127.0.0.1 and 127.0.0.2 (both loopback on Linux) must
// never be mixed up, while both are open, after one closes, and once all have.
import t from 'tap';
import net from 'node:net';
import path from 'node:path';
import { root, startMock, tmpdir } from '../helpers/cli.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');

/** A keep-alive connection from `localAddress` that sends requests one at a time. */
function connect(url, localAddress) {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ port: Number(port), host: hostname, localAddress });
  let buffered = '';
  let waiting;
  socket.on('data', (chunk) => {
    buffered += chunk;
    // every answer here is small and complete once its Content-Length worth of body is in
    const head = buffered.indexOf('\r\n\r\n');
    const length = /content-length: (\d+)/i.exec(buffered.slice(0, head))?.[1];
    if (head !== -1 && length !== undefined && buffered.length >= head + 4 + Number(length)) {
      const answer = buffered;
      buffered = '';
      waiting?.(answer);
    }
  });
  const opened = new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    async get(target) {
      await opened;
      const answered = new Promise((resolve) => (waiting = resolve));
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      return answered;
    },
    close: () => new Promise((resolve) => socket.end(resolve)),
  };
}

async function clientOf(server, tag) {
  const logs = await (await fetch(`${server.url}/__mock/logs?path=/v1/pets/${tag}&limit=1`, { headers: { connection: 'close' } })).json();
  return logs.data[0]?.client_ip;
}

async function activeConnections(server) {
  const dashboard = await (await fetch(`${server.url}/__mock/dashboard`, { headers: { connection: 'close' } })).json();
  return dashboard.data.servers[0].active_connections;
}

t.test('client addresses and open connections, one address or several', async (t) => {
  const server = await startMock(['--spec', petstore, '--out', tmpdir(), '--admin-embed']);
  t.teardown(() => server.stop());

  const a = connect(server.url, '127.0.0.1');
  t.match(await a.get('/v1/pets/1'), /^HTTP\/1\.1 200 /);
  t.equal(await clientOf(server, 1), '127.0.0.1', 'one address connected: its requests name it');

  const b = connect(server.url, '127.0.0.2');
  t.match(await b.get('/v1/pets/2'), /^HTTP\/1\.1 200 /);
  t.equal(await clientOf(server, 2), '127.0.0.2', 'a second address: its requests name it, not the first one');
  await a.get('/v1/pets/3');
  t.equal(await clientOf(server, 3), '127.0.0.1', 'and the first connection still names its own');
  t.ok((await activeConnections(server)) >= 2, 'both connections are counted');

  await a.close();
  await b.get('/v1/pets/4');
  t.equal(await clientOf(server, 4), '127.0.0.2', 'after the first closed, the second is still read right');
  await b.close();

  // all closed: the next connection starts afresh
  const c = connect(server.url, '127.0.0.2');
  await c.get('/v1/pets/5');
  t.equal(await clientOf(server, 5), '127.0.0.2');
  const held = await activeConnections(server);
  t.ok(held >= 1, `the open connection is counted (${held})`);
  await c.close();
});
