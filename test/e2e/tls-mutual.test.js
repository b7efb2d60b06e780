// Mutual TLS (docs/tls.md): with server.tls.client_auth request the HTTP mock (node:https) reads
// the client's certificate; an operation secured by a mutualTLS scheme answers 401 without one and
// 403 for one server.tls.ca does not vouch for; custom routes and override rules match its subject,
// SAN and fingerprint. client_auth require refuses the handshake itself. Clients: curl --cert/--key
// and node:https.
import t from 'tap';
import https from 'node:https';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';
import { startCommand, tmpdir } from '../helpers/cli.js';
import { curl, fingerprint, makeCertificates } from '../helpers/certificates.js';

const dir = tmpdir();
const certs = makeCertificates(dir);
const at = (name) => path.join(dir, name);
const clientFingerprint = fingerprint(dir, 'client.pem');

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
const yaml = (clientAuth) => `specs: [api.yaml]
server: { http_port: 0, bind: 127.0.0.1, tls: { cert: server.pem, key: server.key, ca: ca.pem, client_auth: ${clientAuth} } }
validation: { mode: enforce }
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

const start = async (t, clientAuth) => {
  writeFileSync(at('mock.yaml'), yaml(clientAuth));
  const server = await startCommand(['serve'], /serving on (https:\/\/\S+)/, { cwd: dir });
  t.teardown(() => server.stop());
  return server;
};
const cacert = ['--cacert', at('ca.pem')];
const asClient = [...cacert, '--cert', at('client.pem'), '--key', at('client.key')];
const asRogue = [...cacert, '--cert', at('rogue.pem'), '--key', at('rogue.key')];

t.test('client_auth request: the mutualTLS scheme and certificate conditions', async (t) => {
  const server = await start(t, 'request');
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
