// Mutual TLS (docs/tls.md): with server.tls.client_auth request the HTTP mock (node:https) reads
// the client's certificate; an operation secured by a mutualTLS scheme answers 401 without one and
// 403 for one server.tls.ca does not vouch for; custom routes and override rules match its subject,
// SAN and fingerprint. client_auth require refuses the handshake itself. Clients: curl --cert/--key
// and node:https.
import t from 'tap';
import https from 'node:https';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import WebSocket from 'ws';
import { root, startCommand, tmpdir } from '../helpers/cli.js';
import { curl, fingerprint, makeCertificates } from '../helpers/certificates.js';

const dir = tmpdir();
const certs = makeCertificates(dir);
const at = (name) => path.join(dir, name);
const clientFingerprint = fingerprint(dir, 'client.pem');
const protos = path.join(root, 'examples', 'grpc', 'proto');

writeFileSync(
  at('api.yaml'),
  `openapi: 3.1.0
info: { title: mTLS, version: '1' }
components:
  securitySchemes:
    clientCert: { type: mutualTLS }
paths:
  /secure:
    get:
      security: [{ clientCert: [] }]
      responses:
        '200': { description: ok, content: { application/json: { example: { secure: true } } } }
  /open:
    get:
      responses:
        '200': { description: ok, content: { application/json: { example: { open: true } } } }
`,
);
const yaml = (clientAuth, grpc = false) => `specs: [api.yaml]
server: { http_port: 0,${grpc ? ' grpc_port: 0,' : ''} bind: 127.0.0.1, tls: { cert: server.pem, key: server.key, ca: ca.pem, client_auth: ${clientAuth} } }
${grpc ? `grpc: { proto_dir: ${JSON.stringify(protos)} }\n` : ''}validation: { mode: enforce }
http:
  routes:
    - method: GET
      path: /who
      match: { client_certificate: { subject: /CN=client-a/, san: DNS:client-a.example } }
      response: { status: 200, body: { who: client-a } }
    - method: GET
      path: /who
      response: { status: 200, body: { who: anyone } }
  overrides:
    rules:
      - name: by-fingerprint
        match: { path: /open, client_certificate: { fingerprint: '${clientFingerprint}' } }
        status: 202
        body: { open: 'for client-a' }
`;

const start = async (t, clientAuth, grpc = false) => {
  writeFileSync(at('mock.yaml'), yaml(clientAuth, grpc));
  const server = await startCommand(['serve'], /serving on (https:\/\/\S+)/, { cwd: dir });
  t.teardown(() => server.stop());
  return server;
};
const cacert = ['--cacert', at('ca.pem')];
const asClient = [...cacert, '--cert', at('client.pem'), '--key', at('client.key')];
const asRogue = [...cacert, '--cert', at('rogue.pem'), '--key', at('rogue.key')];

t.test('client_auth request: the mutualTLS scheme and certificate conditions', async (t) => {
  const server = await start(t, 'request', true);
  t.match(server.stdout, 'serving on https://', 'says https://');
  t.match(server.stdout, '(node:http)', 'served by node:https, which shows client certificates');

  const none = curl([...cacert, `${server.url}/secure`]);
  t.equal(none.status, 401, 'no client certificate: 401');
  t.match(JSON.parse(none.body), { error: 'Unauthorized', code: 'MOCK_ERR_UNAUTHORIZED', message: 'GET /secure needs a client certificate (clientCert)' });
  const rogue = curl([...asRogue, `${server.url}/secure`]);
  t.equal(rogue.status, 403, 'a certificate the CA did not sign: 403');
  t.match(JSON.parse(rogue.body), { error: 'Forbidden', code: 'MOCK_ERR_CLIENT_CERTIFICATE_REFUSED', message: /CN=rogue\) is not signed by an authority of server\.tls\.ca/ });
  const good = curl([...asClient, `${server.url}/secure`]);
  t.equal(good.status, 200, 'a certificate the CA signed: 200');
  t.same(JSON.parse(good.body), { secure: true });

  t.same(JSON.parse(curl([...asClient, `${server.url}/who`]).body), { who: 'client-a' }, 'a custom route matches the subject and SAN');
  t.same(JSON.parse(curl([...asRogue, `${server.url}/who`]).body), { who: 'anyone' }, 'another certificate falls through to the next route');
  t.same(JSON.parse(curl([...cacert, `${server.url}/who`]).body), { who: 'anyone' }, 'and so does no certificate');

  const overridden = curl([...asClient, `${server.url}/open`]);
  t.equal(overridden.status, 202, 'an override rule matches the fingerprint');
  t.same(JSON.parse(overridden.body), { open: 'for client-a' });
  t.equal(curl([...asRogue, `${server.url}/open`]).status, 200, 'another fingerprint is not overridden');

  const node = await new Promise((resolve, reject) => {
    https
      .get(`${server.url}/secure`, { ca: certs.ca, cert: certs.client.cert, key: certs.client.key }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
      .on('error', reject);
  });
  t.equal(node, 200, 'node:https with a client certificate');

  // gRPC asks for a certificate too, and serves the call whatever comes
  const grpcAt = /gRPC on (\S+) \(TLS\)/.exec(server.stdout)[1].replace('127.0.0.1', 'localhost');
  const handshake = spawnSync('openssl', ['s_client', '-connect', grpcAt, '-alpn', 'h2', '-CAfile', at('ca.pem')], { input: '', encoding: 'utf8' });
  t.match(handshake.stdout, /Acceptable client certificate CA names\n.*CN ?= ?[^\n]*/, 'the handshake asks for a client certificate, naming ca');
  const { greeter } = grpc.loadPackageDefinition(loadSync(path.join(protos, 'greeter.proto'), { keepCase: true }));
  const sayHello = (credentials) =>
    new Promise((resolve) => {
      const client = new greeter.v1.Greeter(grpcAt, credentials);
      client.SayHello({ name: 'Ada' }, (error, reply) => {
        client.close();
        resolve(error ? `error: ${error.details}` : typeof reply.message);
      });
    });
  t.equal(await sayHello(grpc.credentials.createSsl(Buffer.from(certs.ca))), 'string', 'gRPC without a certificate: served');
  t.equal(
    await sayHello(grpc.credentials.createSsl(...[certs.ca, certs.rogue.key, certs.rogue.cert].map((pem) => Buffer.from(pem)))),
    'string',
    'with one ca did not sign: served (request does not refuse)',
  );
  t.equal(await sayHello(grpc.credentials.createSsl(...[certs.ca, certs.client.key, certs.client.cert].map((pem) => Buffer.from(pem)))), 'string', 'with a signed one: served');
});

t.test('client_auth require: no certificate the CA signed, no connection', async (t) => {
  const server = await start(t, 'require');
  t.not(curl([...cacert, `${server.url}/open`]).code, 0, 'no certificate: the handshake fails');
  t.not(curl([...asRogue, `${server.url}/open`]).code, 0, 'an unsigned one: the handshake fails');
  t.equal(curl([...asClient, `${server.url}/secure`]).status, 200, 'a signed one is served');
});

t.test('client_auth require holds for wss:// too (served by node:https and ws, since uWS never asks)', async (t) => {
  writeFileSync(
    at('mock.yaml'),
    `${yaml('require')}server: { http_port: 0, ws_port: 0, bind: 127.0.0.1, tls: { cert: server.pem, key: server.key, ca: ca.pem, client_auth: require } }\nwebsocket: { enabled: true }\n`.replace(
      /^server: .*\n/m,
      '',
    ),
  );
  const server = await startCommand(['serve'], /WebSocket on (wss:\/\/\S+)/, { cwd: dir });
  t.teardown(() => server.stop());
  const connect = (options) =>
    new Promise((resolve) => {
      const socket = new WebSocket(`${server.url}/echo`, { ca: certs.ca, ...options });
      socket.once('open', () => socket.send('hi'));
      socket.once('message', (data) => {
        socket.close();
        resolve(String(data));
      });
      socket.once('error', (e) => resolve(`error: ${e.code ?? e.message}`));
    });
  t.equal(await connect({ cert: certs.client.cert, key: certs.client.key }), 'hi', 'a client certificate the CA signed: echoed');
  t.match(await connect({}), /^error/, 'no certificate: no connection');
  t.match(await connect({ cert: certs.rogue.cert, key: certs.rogue.key }), /^error/, 'an unsigned one: no connection');
});
