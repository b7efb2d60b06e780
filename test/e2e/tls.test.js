// TLS everywhere (docs/tls.md), through the real CLI and real clients: curl with --cacert, Node's
// https and tls, a wss client on the ws package, grpc-js with TLS credentials, and the admin API
// and metrics over https. --tls-self-signed makes the project's certificate once (key 0600) and
// says how to trust it; wrong files stop the start in one line naming the file and the fix.
import t from 'tap';
import https from 'node:https';
import tls from 'node:tls';
import { copyFileSync, cpSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { root, runCli, startCommand, tmpdir } from '../helpers/cli.js';
import { curl, makeCertificates } from '../helpers/certificates.js';

const get = (url, options) =>
  new Promise((resolve, reject) => {
    https
      .get(url, options, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      })
      .on('error', reject);
  });

t.test('--tls-self-signed: every server over TLS with the project certificate, made once', async (t) => {
  const dir = tmpdir();
  copyFileSync(path.join(root, 'examples', 'petstore.yaml'), path.join(dir, 'petstore.yaml'));
  cpSync(path.join(root, 'examples', 'grpc', 'proto'), path.join(dir, 'proto'), { recursive: true });
  cpSync(path.join(root, 'examples', 'graphql', 'schema.graphql'), path.join(dir, 'schema.graphql'));
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    [
      'specs: [petstore.yaml]',
      'server: { http_port: 0, ws_port: 0, grpc_port: 0, graphql_port: 0, bind: 127.0.0.1 }',
      'grpc: { proto_dir: proto }',
      'graphql: { schema: schema.graphql }',
      'websocket: { enabled: true }',
      'admin: { enabled: true, port: 0 }',
      'metrics: { enabled: true, port: 0 }',
      '',
    ].join('\n'),
  );
  const server = await startCommand(['serve', '--tls-self-signed'], /metrics on (https:\/\/\S+)\/metrics/, { cwd: dir, env: { MOCK_LOG_LEVEL: 'warn' } });
  t.teardown(() => server.stop());
  const out = server.stdout;
  const certFile = path.join(dir, '.mock', 'tls', 'localhost.pem');
  const keyFile = path.join(dir, '.mock', 'tls', 'localhost-key.pem');
  t.match(out, `made a self-signed certificate for localhost, 127.0.0.1 and ::1: ${certFile}`, 'says it made the certificate');
  t.match(out, /to trust it once: .*NODE_EXTRA_CA_CERTS=.*curl: --cacert/, 'and how to trust it');
  t.equal(statSync(keyFile).mode & 0o777, 0o600, 'the key is readable by its owner only');
  t.equal(readFileSync(path.join(dir, '.mock', 'tls', '.gitignore'), 'utf8'), '*\n', 'and git ignores the folder');
  const ca = readFileSync(certFile, 'utf8');
  const x509 = new (await import('node:crypto')).X509Certificate(ca);
  t.match(x509.subjectAltName, 'DNS:localhost', 'for localhost');
  t.match(x509.subjectAltName, 'IP Address:127.0.0.1', 'for 127.0.0.1');
  t.match(x509.subjectAltName, 'IP Address:0:0:0:0:0:0:0:1', 'for ::1');

  const http = /serving on (https:\/\/127\.0\.0\.1:\d+)\/v1/.exec(out)?.[1];
  const wss = /WebSocket on (wss:\/\/\S+)/.exec(out)?.[1];
  const graphql = /GraphQL on (https:\/\/\S+)/.exec(out)?.[1];
  const grpcAt = /gRPC on (\S+) \(TLS\)/.exec(out)?.[1];
  const admin = /admin on (https:\/\/\S+) /.exec(out)?.[1];
  t.ok(http && wss && graphql && grpcAt && admin && server.url, `every start line says https://, wss:// or TLS:\n${out}`);

  const pets = curl(['--cacert', certFile, `${http}/v1/pets`]);
  t.equal(pets.status, 200, 'curl --cacert: the HTTP mock answers over https');
  t.ok(Array.isArray(JSON.parse(pets.body)), 'with the mock body');
  t.not(curl([`${http}/v1/pets`]).code, 0, 'curl without the certificate refuses the connection (not trusted)');
  const plain = curl([`${http.replace('https', 'http')}/v1/pets`]);
  t.not(plain.status, 200, 'plain HTTP on the TLS port gets no answer');

  const node = await get(`${http}/v1/pets`, { ca });
  t.equal(node.status, 200, 'node:https with the certificate as ca');
  const tlsSocket = tls.connect({ host: '127.0.0.1', port: Number(new URL(http).port), ca, servername: 'localhost' });
  await new Promise((resolve, reject) => tlsSocket.once('secureConnect', resolve).once('error', reject));
  t.ok(tlsSocket.authorized, 'node:tls: the certificate verifies for the name localhost');
  t.equal(tlsSocket.getPeerCertificate().fingerprint256, x509.fingerprint256, 'the project certificate is the one served');
  tlsSocket.destroy();

  const health = await get(`${admin}/__mock/health`, { ca });
  t.equal(health.status, 200, 'the admin API over https');
  t.equal(JSON.parse(health.body).status, 'healthy');
  const metrics = await get(`${server.url}/metrics`, { ca });
  t.equal(metrics.status, 200, 'the metrics endpoint over https');
  t.match(metrics.body, /# TYPE/, 'in Prometheus text format');

  const socket = new WebSocket(`${wss}/echo`, { ca });
  const echoed = await new Promise((resolve, reject) => {
    socket.once('open', () => socket.send('over wss'));
    socket.once('message', (data) => resolve(String(data)));
    socket.once('error', reject);
  });
  socket.close();
  t.equal(echoed, 'over wss', 'a ws client echoes over wss://');

  const answer = await new Promise((resolve, reject) => {
    const body = JSON.stringify({ query: '{ __typename }' });
    const req = https.request(graphql, { method: 'POST', ca, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
  t.equal(answer.status, 200, 'GraphQL over https');
  t.same(JSON.parse(answer.text).data, { __typename: 'Query' });

  const { greeter } = grpc.loadPackageDefinition(loadSync(path.join(dir, 'proto', 'greeter.proto'), { keepCase: true }));
  const client = new greeter.v1.Greeter(grpcAt.replace('127.0.0.1', 'localhost'), grpc.credentials.createSsl(Buffer.from(ca)));
  const reply = await new Promise((resolve) => client.SayHello({ name: 'tls' }, (error, message) => resolve({ error, message })));
  client.close();
  t.error(reply.error, 'grpc-js with TLS credentials is answered');
  t.type(reply.message?.message, 'string', 'with a generated reply');
  const insecure = new greeter.v1.Greeter(grpcAt, grpc.credentials.createInsecure());
  const refused = await new Promise((resolve) => insecure.SayHello({ name: 'x' }, { deadline: Date.now() + 3000 }, (error) => resolve(error)));
  insecure.close();
  t.ok(refused, 'a plaintext gRPC client is not served');

  await server.stop();
  const again = await startCommand(['serve', '--tls-self-signed'], /metrics on (https:\/\/\S+)\/metrics/, { cwd: dir, env: { MOCK_LOG_LEVEL: 'warn' } });
  t.teardown(() => again.stop());
  t.notMatch(again.stdout, 'made a self-signed certificate', 'a second start uses the certificate it made');
  t.equal(readFileSync(certFile, 'utf8'), ca, 'unchanged, so it is trusted once');
  await again.stop();
});

t.test('--tls-cert and --tls-key, MOCK_TLS_CERT and MOCK_TLS_KEY; per-server tls: false', async (t) => {
  const dir = tmpdir();
  const certs = makeCertificates(dir);
  copyFileSync(path.join(root, 'examples', 'petstore.yaml'), path.join(dir, 'petstore.yaml'));
  const flags = await startCommand(
    ['serve', '--spec', 'petstore.yaml', '--http-port', '0', '--host', '127.0.0.1', '--tls-cert', 'server.pem', '--tls-key', 'server.key'],
    /serving on (https:\/\/\S+)\/v1/,
    {
      cwd: dir,
    },
  );
  t.teardown(() => flags.stop());
  t.equal(curl(['--cacert', path.join(dir, 'ca.pem'), `${flags.url}/v1/pets`]).status, 200, 'flags: curl trusting the CA is answered');
  await flags.stop();

  writeFileSync(path.join(dir, 'mock.yaml'), 'admin: { enabled: true, port: 0, tls: false }\n');
  const env = await startCommand(['serve', '--spec', 'petstore.yaml', '--http-port', '0', '--host', '127.0.0.1'], /admin on (http:\/\/\S+) /, {
    cwd: dir,
    env: { MOCK_TLS_CERT: 'server.pem', MOCK_TLS_KEY: 'server.key' },
  });
  t.teardown(() => env.stop());
  const https0 = /serving on (https:\/\/\S+)\/v1/.exec(env.stdout)?.[1];
  t.ok(https0, 'MOCK_TLS_CERT and MOCK_TLS_KEY serve the mock over https');
  t.equal((await get(`${https0}/v1/pets`, { ca: certs.ca })).status, 200, 'node:https trusting the CA');
  t.equal((await fetch(`${env.url}/__mock/health`)).status, 200, 'admin.tls: false keeps the admin server on plain http');
  await env.stop();

  writeFileSync(path.join(dir, 'mock.yaml'), 'server: { tls: { cert: server.pem, key: server-encrypted.key, passphrase: s3cret } }\n');
  for (const backend of ['uws', 'node']) {
    const encrypted = await startCommand(['serve', '--spec', 'petstore.yaml', '--http-port', '0', '--host', '127.0.0.1', '--http-backend', backend], /serving on (https:\/\/\S+)\/v1/, { cwd: dir });
    t.teardown(() => encrypted.stop());
    t.equal((await get(`${encrypted.url}/v1/pets`, { ca: certs.ca })).status, 200, `${backend}: an encrypted key opened with its passphrase`);
    t.notMatch(encrypted.stdout + encrypted.stderr, 's3cret', `${backend}: the passphrase is never printed`);
    await encrypted.stop();
  }
  const shown = await runCli(['config', 'show'], { cwd: dir });
  t.notMatch(shown.stdout + shown.stderr, 's3cret', 'mock config show hides the passphrase (x-secret)');
});

t.test('unhappy paths: one line naming the file and the fix', async (t) => {
  const dir = tmpdir();
  makeCertificates(dir);
  copyFileSync(path.join(root, 'examples', 'petstore.yaml'), path.join(dir, 'petstore.yaml'));
  const serve = (args, yaml) => {
    writeFileSync(path.join(dir, 'mock.yaml'), yaml ?? '{}\n');
    return runCli(['serve', '--spec', 'petstore.yaml', '--http-port', '0', '--host', '127.0.0.1', ...args], { cwd: dir });
  };
  const oneLine = (t, run, pattern, what) => {
    t.equal(run.code, 1, `${what}: exit 1`);
    const lines = run.stderr.trim().split('\n');
    t.equal(lines.length, 1, `${what}: one line (${run.stderr})`);
    t.match(lines[0], pattern, what);
  };
  oneLine(
    t,
    await serve(['--tls-cert', 'missing.pem', '--tls-key', 'server.key']),
    /server\.tls\.cert \(--tls-cert, MOCK_TLS_CERT\): cannot read the certificate .*missing\.pem \(no such file\): give the path of a PEM certificate, or use --tls-self-signed/,
    'a missing certificate',
  );
  oneLine(
    t,
    await serve(['--tls-cert', 'server.pem', '--tls-key', 'other.key']),
    /other\.key is not the private key of .*server\.pem .*give the key the certificate was made for/,
    'a key of another certificate',
  );
  oneLine(
    t,
    await serve([], 'server: { tls: { cert: server.pem, key: server-encrypted.key, passphrase: wrong } }\n'),
    /server\.tls\.passphrase does not open .*server-encrypted\.key: give the passphrase the key was encrypted with/,
    'a wrong passphrase',
  );
  const wrong = await serve([], 'server: { tls: { cert: server.pem, key: server-encrypted.key, passphrase: wrong } }\n');
  t.notMatch(wrong.stderr, 'wrong', 'the wrong passphrase is not shown');
  oneLine(
    t,
    await serve([], 'server: { tls: { cert: server.pem, key: server-encrypted.key } }\n'),
    /server-encrypted\.key is encrypted: set server\.tls\.passphrase in mock\.yaml/,
    'an encrypted key without passphrase',
  );
  oneLine(t, await serve(['--tls-cert', 'server.pem']), /server\.tls has a certificate without server\.tls\.key \(--tls-key, MOCK_TLS_KEY\)/, 'a certificate without key');
  oneLine(t, await serve(['--tls-cert', 'server.key', '--tls-key', 'server.key']), /server\.key holds no PEM certificate/, 'a key given as the certificate');
});

t.test('mock admin (the admin server alone) serves https with server.tls', async (t) => {
  const dir = tmpdir();
  const certs = makeCertificates(dir);
  writeFileSync(path.join(dir, 'mock.yaml'), 'server: { tls: { cert: server.pem, key: server.key } }\n');
  const admin = await startCommand(['admin', '--port', '0'], /admin on (https:\/\/\S+)/, { cwd: dir });
  t.teardown(() => admin.stop());
  const health = await get(`${admin.url}/__mock/health`, { ca: certs.ca });
  t.equal(health.status, 200, 'the admin API over https, trusting the CA');
});

t.test('mock bench --insecure loads an https:// mock with a certificate it does not know', async (t) => {
  const dir = tmpdir();
  copyFileSync(path.join(root, 'examples', 'petstore.yaml'), path.join(dir, 'petstore.yaml'));
  const server = await startCommand(['serve', '--spec', 'petstore.yaml', '--http-port', '0', '--host', '127.0.0.1', '--tls-self-signed'], /serving on (https:\/\/[^/\s]+)/, { cwd: dir });
  t.teardown(() => server.stop());
  const bench = (extra) => runCli(['bench', '--spec', 'petstore.yaml', '--target', server.url, '--duration', '500ms', '--vus', '1', '--operations', 'listPets', ...extra], { cwd: dir });
  const insecure = await bench(['--insecure']);
  t.equal(insecure.code, 0, `--insecure: exit 0 (${insecure.stderr})`);
  t.match(insecure.stdout, /statuses\s+200: [\d,]+\n/, 'every request answered 200');
  const checked = await bench([]);
  t.notMatch(checked.stdout, /statuses\s+200:/, 'without it, the unknown certificate is refused');
});

t.test('the SDK: startMockServer with server.tls says https:// and wss://', async (t) => {
  const { startMockServer } = await import('mock-compiler');
  const dir = tmpdir();
  copyFileSync(path.join(root, 'examples', 'petstore.yaml'), path.join(dir, 'petstore.yaml'));
  const mock = await startMockServer({
    spec: 'petstore.yaml',
    cwd: dir,
    server: { http_port: 0, ws_port: 0, bind: '127.0.0.1', tls: { self_signed: true } },
    websocket: { enabled: true },
    logging: { level: 'warn' },
  });
  t.teardown(() => mock.close());
  t.match(mock.url, /^https:\/\/127\.0\.0\.1:\d+$/, 'url is https://');
  t.match(mock.wsUrl, /^wss:\/\/127\.0\.0\.1:\d+$/, 'wsUrl is wss://');
  const ca = readFileSync(path.join(dir, '.mock', 'tls', 'localhost.pem'));
  t.equal((await get(`${mock.url}/v1/pets`, { ca })).status, 200, 'answered over https');
});
