// https:// upstreams (docs/tls.md): the proxy, the reality continuum and recording check the
// upstream's certificate against Node's authorities, or proxy.ca, or not at all with the explicit
// proxy.insecure (which mock serve warns of). The upstream is node:https with certificates openssl made.
import t from 'tap';
import https from 'node:https';
import path from 'node:path';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { root, startCommand, tmpdir } from '../helpers/cli.js';
import { makeCertificates } from '../helpers/certificates.js';

const dir = tmpdir();
makeCertificates(dir);
copyFileSync(path.join(root, 'examples', 'petstore.yaml'), path.join(dir, 'petstore.yaml'));
const upstream = (cert, key) =>
  new Promise((resolve) => {
    const server = https.createServer({ cert: readFileSync(path.join(dir, cert)), key: readFileSync(path.join(dir, key)) }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ id: 7, name: 'from the upstream', url: req.url }]));
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
const signed = await upstream('server.pem', 'server.key');
const selfSigned = await upstream('other.pem', 'other.key');
t.teardown(() => {
  signed.close();
  selfSigned.close();
});
const at = (server) => `https://localhost:${server.address().port}`;

const serve = async (t, yaml, args = []) => {
  writeFileSync(path.join(dir, 'mock.yaml'), yaml);
  const server = await startCommand(['serve', '--http-port', '0', '--host', '127.0.0.1', ...args], /serving on (http:\/\/\S+)\/v1/, { cwd: dir, env: { MOCK_LOG_LEVEL: 'warn' } });
  t.teardown(() => server.stop());
  return server;
};

t.test('the proxy: refused without the CA, served with proxy.ca', async (t) => {
  const plain = await serve(t, `specs: [petstore.yaml]\nproxy: { enabled: true, upstream_url: "${at(signed)}" }\n`);
  const refused = await fetch(`${plain.url}/v1/pets`);
  t.equal(refused.status, 502, 'an upstream certificate no known authority signed: 502');
  const problem = await refused.json();
  t.equal(problem.code, 'MOCK_ERR_UPSTREAM_UNREACHABLE');
  t.match(problem.detail, /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED/, 'naming why');
  await plain.stop();

  const trusting = await serve(t, `specs: [petstore.yaml]\nproxy: { enabled: true, upstream_url: "${at(signed)}", ca: ca.pem }\n`);
  const served = await fetch(`${trusting.url}/v1/pets`);
  t.equal(served.status, 200, 'proxy.ca: the upstream is reached');
  t.match(await served.json(), [{ name: 'from the upstream', url: '/v1/pets' }]);
});

t.test('proxy.insecure: any certificate, said at start', async (t) => {
  const server = await serve(t, `specs: [petstore.yaml]\nproxy: { enabled: true, upstream_url: "${at(selfSigned)}", insecure: true }\n`);
  t.match(server.stdout + server.stderr, 'proxy.insecure: certificates of https:// upstreams are not checked', 'warned');
  const served = await fetch(`${server.url}/v1/pets`);
  t.equal(served.status, 200, 'a self-signed upstream is reached');
});

t.test('the reality continuum and recording reach the upstream with proxy.ca', async (t) => {
  const continuum = await serve(
    t,
    `specs: [petstore.yaml]\nproxy: { upstream_url: "${at(signed)}", ca: ca.pem }\nreality_continuum: { enabled: true, default_ratio: 0, routes: [{ pattern: /v1/pets, ratio: 1 }] }\n`,
  );
  const blended = await fetch(`${continuum.url}/v1/pets`);
  t.equal(blended.headers.get('x-mock-source'), 'upstream', 'the continuum answers from the https upstream');
  t.match(await blended.json(), [{ name: 'from the upstream' }]);
  await continuum.stop();

  const recording = await serve(t, `specs: [petstore.yaml]\nproxy: { ca: ca.pem }\ncore: { fixtures: { dir: ./fixtures } }\n`, ['--record', '--proxy-target', at(signed)]);
  t.equal((await fetch(`${recording.url}/v1/pets`)).status, 200, 'recording through --proxy-target over https');
  await recording.stop();
  const folder = path.join(dir, 'fixtures', 'http');
  const names = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.json')) : [];
  t.equal(names.length, 1, 'one fixture recorded');
  t.match(readFileSync(path.join(folder, names[0]), 'utf8'), 'from the upstream', 'holding the upstream answer');
});
