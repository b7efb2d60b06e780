// Two servers of one `mock serve` run on one port are refused before anything listens, naming both settings.
import net from 'node:net';
import path from 'node:path';
import t from 'tap';
import { root, startMock } from '../helpers/cli.js';
import { failsWith, runCli } from './fixtures/run-cli.js';

const spec = path.join(root, 'examples', 'petstore.yaml');
const FIX = 'set one of them to another port (0 picks a free one)';

/** A port nothing listens on now. */
const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

t.test('clashing ports: one line naming both flags, keys or variables, before listening', async (t) => {
  const cwd = t.testdir({ file: { 'mock.yaml': 'server: { http_port: 3302 }\nmetrics: { enabled: true, port: 3302 }\n' } });
  failsWith(
    t,
    runCli(['serve', '--spec', spec, '--http-port', '3301', '--admin', '--admin-port', '3301'], { cwd }),
    `--http-port and --admin-port are both 3301: the HTTP mock and the admin server cannot share a port; ${FIX}`,
    1,
  );
  failsWith(
    t,
    runCli(['serve', '--spec', spec, '--http-port', '9080', '--admin'], { cwd }),
    `--http-port and admin.port (default) are both 9080: the HTTP mock and the admin server cannot share a port; ${FIX}`,
    1,
  );
  failsWith(
    t,
    runCli(['serve', '--spec', spec, '--http-port', '0', '--admin', '--metrics', '--metrics-port', '9080'], { cwd }),
    `admin.port (default) and --metrics-port are both 9080: the admin server and the metrics endpoint cannot share a port; ${FIX}`,
    1,
  );
  failsWith(
    t,
    runCli(['serve', '--spec', spec], { cwd: path.join(cwd, 'file') }),
    `server.http_port in mock.yaml and metrics.port in mock.yaml are both 3302: the HTTP mock and the metrics endpoint cannot share a port; ${FIX}`,
    1,
  );
  failsWith(
    t,
    runCli(['serve', '--spec', spec, '--metrics'], { cwd, env: { MOCK_HTTP_PORT: '9090' } }),
    `MOCK_HTTP_PORT and metrics.port (default) are both 9090: the HTTP mock and the metrics endpoint cannot share a port; ${FIX}`,
    1,
  );
});

t.test('no clash: port 0 everywhere, an embedded admin, different addresses', async (t) => {
  const zero = await startMock(['--spec', spec, '--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0']);
  t.ok(zero.adminUrl && zero.metricsUrl, 'all three servers on free ports');
  await zero.stop();

  const port = String(await freePort());
  const embedded = await startMock(['--spec', spec, '--http-port', port, '--host', '127.0.0.1', '--admin-embed', '--admin-port', port]);
  t.match(embedded.stdout, `admin embedded at http://127.0.0.1:${port}/admin`, 'the embedded admin uses the HTTP port: admin.port is not listened on');
  await embedded.stop();

  const apart = await startMock(['--spec', spec, '--http-port', port, '--host', '127.0.0.2', '--admin', '--admin-port', port]);
  t.match(apart.adminUrl, `http://127.0.0.1:${port}`, 'the same port on two loopback addresses');
  await apart.stop();
});
