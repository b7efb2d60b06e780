// What a plain `mock serve` loads: libraries that only some servers need (metrics, authentication,
// admin/mock/override bodies to check, multipart bodies) and the compiler stay out of its memory until used.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, startMock, tmpdir } from '../helpers/cli.js';

const dir = tmpdir();
// one pair of lists per process: the build runs in a child process that inherits NODE_OPTIONS
const cjsList = (pid) => path.join(dir, `required-${pid}.txt`);
const esmList = (pid) => path.join(dir, `imported-${pid}.txt`);
const hooks = path.join(dir, 'hooks.mjs');
const preload = path.join(dir, 'preload.cjs');
// ESM loader hooks run on their own thread: each URL is appended as it loads
writeFileSync(
  hooks,
  `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(dir)} + '/imported-' + process.pid + '.txt', url + '\\n');
  return next(url, context);
}
`,
);
writeFileSync(
  preload,
  `require('node:module').register(${JSON.stringify(pathToFileURL(hooks).href)});
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(dir)} + '/required-' + process.pid + '.txt', Object.keys(require.cache).join('\\n')));
`,
);

const server = await startMock(['--spec', path.join(root, 'examples', 'petstore.yaml'), '--out', path.join(dir, 'out')], { env: { NODE_OPTIONS: `--require ${preload}` } });
t.teardown(() => server.stop());

t.test('the server answers, then its list of loaded modules leaves the optional libraries out', async (t) => {
  t.equal((await fetch(`${server.url}/v1/pets/1`)).status, 200);
  await server.stop();
  const { pid } = server.child;
  const files = [...readFileSync(cjsList(pid), 'utf8').split('\n'), ...readFileSync(esmList(pid), 'utf8').split('\n')].map((line) => line.replace(/^file:\/\//, ''));
  // the command line runs from its bundle (dist/bundle): each module in a file of it starts with a `// dist/…` line
  const bundled = files.filter((file) => file.includes('/dist/bundle/'));
  t.ok(bundled.length > 0, 'mock serve ran from the bundle');
  const loaded = [...files, ...bundled.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/^\/\/ (dist\/\S+\.js)$/gm)].map(([, module]) => path.join(root, module)))];
  t.ok(loaded.some((file) => file.includes('/node_modules/uWebSockets.js/')), 'the lists are real: they hold the server library (ESM)');
  t.ok(loaded.some((file) => file.includes('/node_modules/pino/')), 'and the logger (CommonJS)');
  for (const library of ['prom-client', 'jose', 'ajv/dist/ajv.js', '@opentelemetry', 'typescript', 'ts-morph', '@redocly', 'graphql', 'graphql-jit', '@grpc', 'protobufjs', '@fastify/busboy', 'json-schema-to-typescript', 'ts-proto', 'prettier', 'dprint-node', '@dprint']) {
    t.notOk(loaded.some((file) => file.includes(`/node_modules/${library}`)), `${library} is not loaded`);
  }
  t.ok(loaded.some((file) => file.endsWith('/dist/compiler/serving.js')), "the compiler's serving face checks the build");
  t.notOk(loaded.some((file) => /\/dist\/compiler\/(compile\.js|emit|generate|ir|load|template|bundled)\b/.test(file)), 'nothing of the compiler that builds, nor the code generators it bundles');
});
