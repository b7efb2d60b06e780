// Where the uWebSockets.js addon does not load, `auto` serves with node:http and says why in one
// info line; an explicit `server.http_backend: uws` is a one-line error. On this machine's Node the
// addon loads, so a loader hook makes the package's entry fail as uws-pack fails when the
// dynamic linker refuses its binary (a glibc newer than the system's); the real ABI case (no build
// for Node 24 and 26) is checked on those Node versions by scripts/node-compat.js.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, runMock, startMock, tmpdir } from '../helpers/cli.js';

const dir = tmpdir();
const petstore = path.join(root, 'examples', 'petstore.yaml');
const abi = process.versions.modules;
const major = process.versions.node.split('.')[0];
const glibc = process.report.getReport().header.glibcVersionRuntime;
// uws-pack's message, then the loader's own error after a blank line (dist/uws.mjs)
const loaderError = `This version of uWS.js supports only Node.js versions 18, 20, 21 and 22 on (glibc) Linux, macOS and Windows, on Tier 1 platforms (https://github.com/nodejs/node/blob/master/BUILDING.md#platform-list).\n\nError: /lib/x86_64-linux-gnu/libc.so.6: version \`GLIBC_2.99' not found (required by ${root}/node_modules/uWebSockets.js/dist/bin/uws_linux_x64_${abi}.node)`;
const hooks = path.join(dir, 'hooks.mjs');
writeFileSync(
  hooks,
  `export async function load(url, context, next) {
  if (url.endsWith('/uWebSockets.js/dist/index.mjs')) return { format: 'module', source: 'throw new Error(' + ${JSON.stringify(JSON.stringify(loaderError))} + ');', shortCircuit: true };
  return next(url, context);
}
`,
);
const register = path.join(dir, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
const env = { NODE_OPTIONS: `--import ${pathToFileURL(register).href}`, MOCK_LOG_LEVEL: 'info' };

t.test('auto: node:http serves, and one info line says why and what it costs', { skip: glibc === undefined && 'not a glibc system' }, async (t) => {
  const server = await startMock(['--spec', petstore, '--out', path.join(dir, 'out')], { env });
  t.teardown(() => server.stop());
  const lines = server.stdout.split('\n').filter((line) => line.includes('INFO:') && line.includes('node:http'));
  t.equal(lines.length, 1, 'one line');
  t.match(server.stdout, /serving on http:\/\/\S+ \(node:http\)\n/, 'the start line names the library');
  t.match(lines[0], `INFO: uWebSockets.js's build for Node ${major} (ABI ${abi}) needs glibc 2.99 and this system has ${glibc}: serving with node:http, about 0.4x the throughput`);
  const others = /the throughput; Node (\d+(?: or \d+)*) serves with uWS$/.exec(lines[0])?.[1];
  t.ok(others, 'names the Node versions whose build loads here');
  t.notOk(others?.split(' or ').includes(major), 'not this one');
  const answer = await fetch(`${server.url}/v1/pets/1`);
  t.equal(answer.status, 200);
  t.equal((await answer.json()).name, 'Tom');
  t.equal(answer.headers.get('uwebsockets'), null, 'answered by node:http');
  t.equal(answer.headers.get('keep-alive'), 'timeout=5', "node:http's keep-alive hint");
  t.equal(await server.stop(), 0);
  t.notMatch(server.stderr, /\n\s+at /, 'no stack trace');
});

t.test('server.http_backend: uws is a one-line error, exit 1, nothing served', { skip: glibc === undefined && 'not a glibc system' }, async (t) => {
  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${JSON.stringify(petstore)}]\nserver: { http_backend: uws, http_port: 0, bind: 127.0.0.1 }\nbuild: { out_dir: out }\n`);
  const { code, stdout, stderr } = await runMock(['serve'], { cwd: dir, env });
  t.equal(code, 1);
  t.notMatch(stdout, /serving on/);
  t.equal(
    stderr,
    `server.http_backend is uws, but uWebSockets.js's build for Node ${major} (ABI ${abi}) needs glibc 2.99 and this system has ${glibc}: set it to auto or node to serve with node:http (about 0.4x the throughput), or run mock on Node ${stderr.match(/or run mock on Node ([\d or]+)\n$/)?.[1]}\n`,
  );
  t.match(stderr, /or run mock on Node \d+( or \d+)*\n$/);
});
