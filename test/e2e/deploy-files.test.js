// The Dockerfile and deploy/kubernetes/ checked against the code (docker and a cluster are not
// available here): ports and probes are the built config defaults, the ConfigMap's mock.yaml is
// valid, and a real `mock serve` started with the image's CMD, reading the ConfigMap laid out as
// the kubelet mounts it (keys linked through ..data/), answers the probe path.
import t from 'tap';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { root, runCli, startCommand, tmpdir } from '../helpers/cli.js';
import { defaultValue } from '../../dist/src/config/index.js';

const read = (file) => readFileSync(path.join(root, file), 'utf8');
const manifests = ['configmap.yaml', 'deployment.yaml', 'service.yaml'].flatMap((file) =>
  parseAllDocuments(read(`deploy/kubernetes/${file}`)).map((doc) => doc.toJS()),
);
const kind = (name) => manifests.find((m) => m.kind === name);
const configMap = kind('ConfigMap');
const deployment = kind('Deployment');
const service = kind('Service');
const container = deployment.spec.template.spec.containers[0];

/** Dockerfile instructions (continuation lines joined), in order. */
const dockerfile = read('Dockerfile')
  .replace(/\\\n/g, ' ')
  .split('\n')
  .filter((line) => line.trim() && !line.trim().startsWith('#'))
  .map((line) => {
    const [, instruction, rest] = /^\s*(\S+)\s+(.*)$/.exec(line);
    return { instruction: instruction.toUpperCase(), rest: rest.trim() };
  });
const all = (name) => dockerfile.filter((i) => i.instruction === name);
const last = (name) => all(name).at(-1);
const cmd = [...JSON.parse(last('ENTRYPOINT').rest), ...JSON.parse(last('CMD').rest)];
const serveArgs = cmd.slice(cmd.indexOf('serve'));
const stages = dockerfile.reduce((list, i) => (i.instruction === 'FROM' ? [...list, [i]] : (list.at(-1).push(i), list)), []);

const httpPort = defaultValue('server.http_port');
/** The emptyDir mount a path lies on. */
const emptyDir = (file) =>
  container.volumeMounts.find((m) => deployment.spec.template.spec.volumes.find((v) => v.name === m.name).emptyDir && file.startsWith(`${m.mountPath}/`));

t.test('the image listens, is probed and exposes what the config defaults name', async (t) => {
  const exposed = last('EXPOSE').rest.split(/\s+/).map(Number).sort((a, b) => a - b);
  const listening = ['server.http_port', 'server.ws_port', 'server.graphql_port', 'server.grpc_port'].map(defaultValue).sort((a, b) => a - b);
  t.same(exposed, listening, 'EXPOSE: the servers that bind every address by default');
  t.equal(defaultValue('server.bind'), '0.0.0.0', 'which is why they are reachable in a container');
  t.match(last('HEALTHCHECK').rest, `http://127.0.0.1:${httpPort}/__mock/health`, 'HEALTHCHECK on the HTTP port');
});

t.test('the Dockerfile builds with the README\'s commands in one stage and runs as non-root in another', async (t) => {
  t.equal(stages.length, 2, 'multi-stage');
  const readme = read('README.md');
  const build = stages[0].filter((i) => i.instruction === 'RUN').map((i) => i.rest).join(' && ');
  for (const command of ['npm ci', 'npm run build']) {
    t.match(readme, command, `the README says ${command}`);
    t.match(build, command, `the build stage runs ${command}`);
  }
  t.match(build, 'npm prune --omit=dev', 'the runtime keeps only production dependencies');
  const runtime = stages[1];
  t.notOk(runtime.some((i) => i.instruction === 'RUN' && /npm (ci|install)/.test(i.rest)), 'the runtime stage installs nothing');
  const user = runtime.filter((i) => i.instruction === 'USER').at(-1)?.rest;
  t.ok(user && user !== 'root' && user !== '0', `runs as ${user}`);
  // whatever the package ships that serving reads is copied
  const copied = runtime.filter((i) => i.instruction === 'COPY').map((i) => i.rest);
  const files = JSON.parse(read('package.json')).files.filter((f) => f !== 'docs');
  for (const file of files) t.ok(copied.some((c) => c.includes(`/src/${file}`)), `copies ${file}`);
  t.equal(serveArgs[serveArgs.indexOf('--workers') + 1], 'auto', 'one worker per core the container may use');
  t.match(read('.dockerignore'), /^node_modules$/m, '.dockerignore keeps the host\'s node_modules out');
});

t.test('the Deployment probes the health path on the HTTP port and mounts the ConfigMap as a folder', async (t) => {
  const port = container.ports.find((p) => p.name === 'http');
  t.equal(port.containerPort, httpPort);
  for (const probe of ['readinessProbe', 'livenessProbe']) {
    t.equal(container[probe].httpGet.path, '/__mock/health', `${probe} path`);
    t.equal(container[probe].httpGet.port, 'http', `${probe} port`);
  }
  t.equal(service.spec.ports[0].targetPort, 'http');
  t.same(service.spec.selector, deployment.spec.selector.matchLabels);
  t.same(container.args, serveArgs, 'the container runs the image\'s CMD');
  const volume = deployment.spec.template.spec.volumes.find((v) => v.configMap?.name === configMap.metadata.name);
  const mount = container.volumeMounts.find((m) => m.name === volume.name);
  t.notOk(mount.subPath, 'no subPath: the ConfigMap is mounted as a folder');
  t.equal(serveArgs[serveArgs.indexOf('--config') + 1], `${mount.mountPath}/mock.yaml`, 'serve reads mock.yaml inside the mounted folder');
  t.equal(deployment.spec.template.spec.securityContext.runAsNonRoot, true);
  // the root file system is read-only: the builds go to a writable emptyDir
  const out = serveArgs[serveArgs.indexOf('--out') + 1];
  t.ok(emptyDir(out), `--out ${out} is on an emptyDir`);
});

t.test('the ConfigMap, mounted as the kubelet does, is valid and serves with the image\'s CMD', async (t) => {
  // the kubelet's layout: a timestamped folder, ..data linking to it, each key linking through ..data
  const dir = tmpdir();
  const stamped = path.join(dir, '..2026_01_01_00_00_00.000000001');
  mkdirSync(stamped);
  for (const [key, text] of Object.entries(configMap.data)) writeFileSync(path.join(stamped, key), text);
  symlinkSync(path.basename(stamped), path.join(dir, '..data'));
  for (const key of Object.keys(configMap.data)) symlinkSync(path.join('..data', key), path.join(dir, key));
  const mountPath = container.volumeMounts.find((m) => !m.subPath && m.readOnly).mountPath;
  const scratch = emptyDir(serveArgs[serveArgs.indexOf('--out') + 1]).mountPath;
  const args = serveArgs.map((arg) => (arg.startsWith(`${mountPath}/`) ? arg.replace(mountPath, dir) : arg.startsWith(`${scratch}/`) ? arg.replace(scratch, tmpdir()) : arg));

  const validate = await runCli(['config', 'validate', '-c', path.join(dir, 'mock.yaml')]);
  t.equal(validate.code, 0, `mock config validate: ${validate.stdout}${validate.stderr}`);

  // same arguments; only the port (free, from the environment) and loopback differ
  const server = await startCommand(args, /serving on (http:\/\/[^/\s]+)/, { env: { MOCK_HTTP_PORT: '0', MOCK_HTTP_HOST: '127.0.0.1' } });
  t.teardown(() => server.stop());
  const health = await fetch(`${server.url}/__mock/health`);
  t.equal(health.status, 200, 'the probe path answers 200');
  const orders = await fetch(`${server.url}/v1/orders`);
  t.equal(orders.status, 200, 'the ConfigMap\'s description is served');
});
