#!/usr/bin/env node
// Compatibility run (`.ci/run` calls it after the full suite): mock on every maintained Node.js.
// The full suite runs on the machine's Node; this runs the compiled CLI (dist/, built by the suite)
// on the newest Node 22, 24 and 26 of the npm registry (scripts/node-binaries.js: downloaded in
// parallel once, then cached), one server per version, the versions side by side. Per version:
//   mock --version, mock build of examples/petstore.yaml, mock serve of it (admin on), the backend
//   it chose (uWS where uWebSockets.js loads, else node:http with one info line saying why), a
//   static, a generated and a rejected request, the admin health, a 2-second mock bench, a clean
//   stop, then what the server recorded: fixture files (validate-fixtures) and the recorder
//   database (verify-mocks); where uWS does not load, server.http_backend: uws must be a one-line error.
//   The WebSocket server (--ws-port 0) echoes a text and a binary message, on uWS or on ws; the
//   GraphQL server (--graphql-schema) answers a query over HTTP and a subscription over graphql-transport-ws;
//   the gRPC server (--proto-dir with the corpus's helloworld.proto) answers a unary call and a server stream.
// Each asserted check is one test: `ok`/`not ok` lines, then `node-compat: N passed, N failed`.
// Exits 1 on any failure. NODE_COMPAT_MAJORS="22 24 26" picks the majors.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { ensureNodes } from './node-binaries.js';
// the throughput note the server prints, as the build says it (not a copy that goes stale)
import { NODE_HTTP_THROUGHPUT } from '../dist/runtime/servers/http/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = path.join(root, 'bin', 'run.js');
const petstore = path.join(root, 'examples', 'petstore.yaml');
const shop = path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql');
const helloworld = path.resolve(root, '..', 'shared', 'corpus', 'proto', 'examples', 'helloworld.proto');
const majors = (process.env.NODE_COMPAT_MAJORS ?? '22 24 26').split(/[\s,]+/).filter(Boolean).map(Number);
// the backend each major gets from the installed uWebSockets.js (uws-pack 20.0.8: ABIs 108-127)
const ABI = { 20: 115, 22: 127, 24: 137, 26: 147 };
const UWS_MAJORS = [20, 22];

const started = Date.now();
const scratch = await mkdtemp(path.join(tmpdir(), 'mock-node-compat-'));
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
const children = new Set();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
// the caller's MOCK_* settings must not change what is checked
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));

if (!existsSync(path.join(root, 'dist', 'src'))) {
  console.error('node-compat: no dist/ (run npm run build first)');
  process.exit(1);
}

/** Runs a command to its end: { code, stdout, stderr }; killed after `timeoutMs`. */
function exec(node, args, { cwd, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(node, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code: code ?? signal, stdout, stderr });
    });
  });
}

/** `mock serve` in the background: resolves once it printed its addresses (or ended). */
function serve(node, cwd, out) {
  // recording on: fixture files and the recorder database (node:sqlite where Node has it, SQLite in WebAssembly otherwise)
  const args = [cli, 'serve', '--spec', petstore, '--out', out, '--host', '127.0.0.1', '--http-port', '0', '--admin', '--admin-port', '0', '--record', '--recorder', '--recorder-db', 'recordings.db', '--ws-port', '0', '--graphql-schema', shop, '--graphql-port', '0', '--proto-dir', 'proto', '--grpc-port', '0'];
  const child = spawn(node, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const server = { child, output: '', stderr: '', url: undefined, adminUrl: undefined };
  const ended = new Promise((resolve) => child.on('close', (code, signal) => (children.delete(child), resolve(code ?? signal))));
  server.ended = ended;
  child.stderr.on('data', (d) => (server.stderr += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(server), 30_000);
    child.stdout.on('data', (d) => {
      server.output += d;
      server.url ??= /^mock: serving on (http:\/\/[^/\s]+)/m.exec(server.output)?.[1];
      server.adminUrl ??= /^mock: admin on (http:\/\/\S+)/m.exec(server.output)?.[1];
      server.wsUrl ??= /^mock: WebSocket on (ws:\/\/\S+)/m.exec(server.output)?.[1];
      server.graphqlUrl ??= /^mock: GraphQL on (http:\/\/\S+)/m.exec(server.output)?.[1];
      server.grpcAddress ??= /^mock: gRPC on (\S+)/m.exec(server.output)?.[1];
      if (server.url !== undefined && server.adminUrl !== undefined) {
        clearTimeout(timer);
        resolve(server);
      }
    });
    ended.then(() => (clearTimeout(timer), resolve(server)));
  });
}

/** The first `count` events of a subscription (graphql-ws's client over the ws package). */
function subscriptionEvents(url, query, count) {
  const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0 });
  const events = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${events.length} of ${count} events within 10 s`)), 10_000);
    const stop = client.subscribe({ query }, {
      next: (event) => {
        events.push(event);
        if (events.length === count) {
          clearTimeout(timer);
          stop();
          resolve(events);
        }
      },
      error: (e) => (clearTimeout(timer), reject(e instanceof Error ? e : new Error(JSON.stringify(e)))),
      complete: () => {},
    });
  }).finally(() => client.dispose());
}

/** A text and a binary message sent to an echo path, and what came back. */
function wsEcho(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const got = [];
    const timer = setTimeout(() => (ws.terminate(), reject(new Error(`no echo within 10 s (got ${got.length})`))), 10_000);
    ws.on('open', () => {
      ws.send('hello');
      ws.send(Buffer.from([1, 2, 3]));
    });
    ws.on('message', (data, binary) => {
      got.push(binary ? `binary:${[...data].join(',')}` : `text:${data}`);
      if (got.length === 2) {
        clearTimeout(timer);
        ws.close();
        resolve(got);
      }
    });
    ws.on('error', (e) => (clearTimeout(timer), reject(e)));
  });
}

/** The admin live stream's first messages: hello, then a metrics message within two seconds. */
function streamOpening(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const types = [];
    const timer = setTimeout(() => (ws.terminate(), reject(new Error(`got ${types.join(', ') || 'nothing'} within 5 s`))), 5000);
    ws.on('message', (data) => {
      types.push(JSON.parse(data.toString()).type);
      if (types.includes('metrics')) {
        clearTimeout(timer);
        ws.close();
        resolve(types);
      }
    });
    ws.on('error', (e) => (clearTimeout(timer), reject(e)));
  });
}

/**
 * `mock tui` in a pseudo-terminal (util-linux's script): what it drew until its overview tab
 * showed, and its exit code after `q`.
 */
function tuiSession(node, adminUrl) {
  return new Promise((resolve, reject) => {
    // the pseudo-terminal's size is script's own terminal's, none under CI: give it one
    const command = `stty cols 100 rows 30; exec ${[node, cli, 'tui', '--admin-url', adminUrl].map((a) => `'${a}'`).join(' ')}`;
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...env, TERM: 'xterm-256color' }, stdio: ['pipe', 'pipe', 'pipe'] });
    children.add(child);
    let screen = '';
    let quitting;
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${quitting === undefined ? 'no overview' : 'q did not quit'} within 20 s: ${screen.slice(-300)}`))), 20_000);
    child.stdout.on('data', (d) => {
      screen += d;
      // a key typed before the dashboard reads its keys (raw mode) can be lost: q until it quits
      if (quitting === undefined && screen.includes('Requests/s') && screen.includes('live (')) quitting = setInterval(() => child.stdin.write('q'), 300);
    });
    // a q written as the dashboard quits finds the pipe closed: that is the quit it asked for
    child.stdin.on('error', () => clearInterval(quitting));
    child.on('close', (code) => (clearTimeout(timer), clearInterval(quitting), children.delete(child), resolve({ code, screen })));
  });
}

/** `mock serve --workers 2` on the petstore; settles once the primary says the workers serve (or it ends). */
function serveWorkers(node, cwd, out) {
  const child = spawn(node, [cli, 'serve', '--spec', petstore, '--out', out, '--host', '127.0.0.1', '--http-port', '0', '--grpc-port', '0', '--workers', '2'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const server = { child, output: '', stderr: '', url: undefined };
  server.ended = new Promise((resolve) => child.on('close', (code, signal) => (children.delete(child), resolve(code ?? signal))));
  child.stderr.on('data', (d) => (server.stderr += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(server), 30_000);
    child.stdout.on('data', (d) => {
      server.output += d;
      if (!/^mock: 2 workers/m.test(server.output)) return;
      server.url = /^mock: serving on (http:\/\/[^/\s]+)/m.exec(server.output)?.[1];
      clearTimeout(timer);
      resolve(server);
    });
    server.ended.then(() => (clearTimeout(timer), resolve(server)));
  });
}

/** A GET on a connection of its own (each may land on another worker); its status. */
function statusOnNewConnection(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
  });
}

async function get(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** One version's checks, recorded as [ok, name, why] in order. */
async function checkVersion({ major, version, node, error }) {
  const results = [];
  const label = `node ${version ?? major}`;
  const check = (ok, name, why = '') => results.push([Boolean(ok), `${label}: ${name}`, ok ? '' : why]);
  /** A check whose assertion throws: the error is its reason. */
  const attempt = async (name, fn) => {
    try {
      const why = await fn();
      check(why === undefined, name, why);
    } catch (e) {
      check(false, name, e.message);
    }
  };
  if (error !== undefined) {
    check(false, `Node ${major} binary from the npm registry`, error);
    return results;
  }
  const dir = path.join(scratch, String(major));
  const out = path.join(dir, 'generated');
  const mock = (...args) => exec(node, [cli, ...args], { cwd: dir });
  mkdirSync(path.join(dir, 'proto'), { recursive: true });
  cpSync(helloworld, path.join(dir, 'proto', 'helloworld.proto'));

  const versionLine = await mock('--version');
  check(versionLine.code === 0 && versionLine.stdout.includes(`node-v${version}`), 'mock --version runs on it', `exit ${versionLine.code}: ${versionLine.stdout}${versionLine.stderr}`.trim());

  const build = await mock('build', '--spec', petstore, '--out', out);
  const built = build.code === 0 && existsSync(path.join(out, 'petstore', 'manifest.json'));
  check(built, 'mock build examples/petstore.yaml', `exit ${build.code}: ${build.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  if (!built) return results;

  const uwsHere = UWS_MAJORS.includes(major);
  // node:sqlite without a flag: 22.13 and later (every newest 22, 24, 26)
  const sqliteHere = major >= 22;
  // where uWS does not load, asking for it explicitly is a one-line error (run beside the server)
  const explicit = uwsHere
    ? undefined
    : (writeFileSync(path.join(dir, 'uws.yaml'), 'server: { http_backend: uws, http_port: 0, bind: 127.0.0.1 }\n'), mock('serve', '-c', 'uws.yaml', '--spec', petstore, '--out', out));

  const server = await serve(node, dir, out);
  try {
    const up = server.url !== undefined && server.adminUrl !== undefined;
    check(up, 'mock serve --admin starts', `${server.output}${server.stderr}`.trim().split('\n').slice(-3).join(' | ') || 'no output in 30 s');
    if (!up) return results;
    const commandLine = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
    check(
      commandLine.includes('--max-semi-space-size=64') && commandLine.includes('serve'),
      'mock serve restarted itself in place (same pid) with a 64 MB semi-space ceiling',
      `command line of pid ${server.child.pid}: ${commandLine.join(' ')}`,
    );

    const fallback = server.output.split('\n').filter((line) => line.includes('serving with node:http'));
    const staticAnswer = await get(`${server.url}/v1/pets/1`).catch((e) => ({ error: e }));
    const uwsAnswered = staticAnswer.headers?.has('uwebsockets') === true;
    if (uwsHere) {
      check(fallback.length === 0 && uwsAnswered, 'served by uWebSockets.js (its uWebSockets header, no fallback line)', `fallback lines: ${JSON.stringify(fallback)}, uWebSockets header: ${uwsAnswered}`);
    } else {
      const expected = `INFO: uWebSockets.js has no build for Node ${major} (ABI ${ABI[major]}) on this system: serving with node:http, ${NODE_HTTP_THROUGHPUT}; Node 22 or 20 serves with uWS`;
      check(
        fallback.length === 1 && fallback[0].endsWith(expected) && !uwsAnswered,
        'served by node:http, with one info line saying why',
        `fallback lines: ${JSON.stringify(fallback)} (expected one ending "${expected}"), uWebSockets header: ${uwsAnswered}`,
      );
    }

    await attempt('static GET /v1/pets/1: 200, the documented example', () => {
      if (staticAnswer.error) throw staticAnswer.error;
      const { status, json, headers } = staticAnswer;
      if (status !== 200 || json?.name !== 'Tom' || !headers.get('content-type')?.startsWith('application/json')) return `${status} ${headers.get('content-type')} ${staticAnswer.text.slice(0, 200)}`;
    });
    await attempt('generated GET /v1/pets?limit=3: 200, up to 3 pets of the schema', async () => {
      const { status, json, text } = await get(`${server.url}/v1/pets?limit=3`);
      const valid = Array.isArray(json) && json.length <= 3 && json.every((pet) => typeof pet.name === 'string' && ['cat', 'dog', 'bird'].includes(pet.kind));
      if (status !== 200 || !valid) return `${status} ${text.slice(0, 200)}`;
    });
    await attempt('rejected GET /v1/pets?limit=abc: 400 MOCK_ERR_REQUEST_INVALID', async () => {
      const { status, headers, text } = await get(`${server.url}/v1/pets?limit=abc`);
      if (status !== 400 || headers.get('x-mock-error-code') !== 'MOCK_ERR_REQUEST_INVALID') return `${status} x-mock-error-code: ${headers.get('x-mock-error-code')} ${text.slice(0, 200)}`;
    });
    await attempt(`WebSocket echo (${uwsHere ? 'uWebSockets.js' : 'ws'}): text as text, binary as binary`, async () => {
      if (server.wsUrl === undefined) return 'mock serve printed no WebSocket address';
      const library = server.output.includes('serving WebSocket with node:http and the ws package') ? 'ws' : 'uWebSockets.js';
      if (library !== (uwsHere ? 'uWebSockets.js' : 'ws')) return `served by ${library}`;
      const got = await wsEcho(`${server.wsUrl}/echo`);
      if (got.join(' ') !== 'text:hello binary:1,2,3') return got.join(' ');
    });
    await attempt('GraphQL: a query over HTTP, two events of a subscription over graphql-transport-ws', async () => {
      if (server.graphqlUrl === undefined) return 'mock serve printed no GraphQL address';
      const response = await fetch(server.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' }, body: JSON.stringify({ query: '{ me { id email } }' }) });
      const body = await response.json();
      if (response.status !== 200 || !/@/.test(body.data?.me?.email ?? '')) return `${response.status} ${JSON.stringify(body).slice(0, 200)}`;
      const events = await subscriptionEvents(server.graphqlUrl.replace(/^http/, 'ws'), 'subscription { userCreated { id name } }', 2);
      if (events.length !== 2 || events.some((event) => typeof event.data?.userCreated?.name !== 'string')) return JSON.stringify(events).slice(0, 200);
    });
    await attempt('gRPC: a unary call and a server stream with @grpc/grpc-js', async () => {
      if (server.grpcAddress === undefined) return 'mock serve printed no gRPC address';
      const loaded = grpc.loadPackageDefinition(loadSync(helloworld, { keepCase: true }));
      const greeter = new loaded.helloworld.Greeter(server.grpcAddress, grpc.credentials.createInsecure());
      try {
        const reply = await new Promise((resolve, reject) => greeter.SayHello({ name: 'node' }, { deadline: Date.now() + 10_000 }, (error, response) => (error ? reject(error) : resolve(response))));
        if (typeof reply.message !== 'string' || reply.message === '') return JSON.stringify(reply);
        const replies = await new Promise((resolve, reject) => {
          const got = [];
          const call = greeter.SayHelloStreamReply({ name: 'node' }, { deadline: Date.now() + 10_000 });
          call.on('data', (message) => got.push(message));
          call.on('error', reject);
          call.on('end', () => resolve(got));
        });
        if (replies.length !== 3) return `${replies.length} stream messages, not grpc.stream.count 3`;
      } finally {
        greeter.close();
      }
    });
    await attempt('admin live stream /__mock/ws: hello, then metrics', async () => {
      const types = await streamOpening(`${server.adminUrl.replace(/^http/, 'ws')}/__mock/ws`);
      if (types[0] !== 'hello') return types.join(', ');
    });
    await attempt('mock tui (ink) draws its overview in a terminal and quits on q, leaving the alternate screen', async () => {
      const { code, screen } = await tuiSession(node, server.adminUrl);
      if (code !== 0 || !screen.includes('\x1b[?1049h') || !screen.includes('\x1b[?1049l')) return `exit ${code}: ${JSON.stringify(screen.slice(-200))}`;
    });
    await attempt('admin GET /__mock/health: 200, healthy, http, websocket, graphql and grpc running', async () => {
      const { status, json, text } = await get(`${server.adminUrl}/__mock/health`);
      const services = json?.services ?? {};
      if (status !== 200 || json?.status !== 'healthy' || ['http', 'websocket', 'graphql', 'grpc'].some((key) => services[key] !== 'running')) return `${status} ${text.slice(0, 200)}`;
    });
    await attempt(`the recorder database writes with ${sqliteHere ? 'node:sqlite' : 'node-sqlite3-wasm'} and lists what it recorded`, async () => {
      const { json, text } = await get(`${server.adminUrl}/__mock/recorder/recordings`);
      const listing = json?.data;
      if (listing?.recorder?.library !== (sqliteHere ? 'node:sqlite' : 'node-sqlite3-wasm') || !(listing.total > 0)) return text.slice(0, 300);
      if (/ExperimentalWarning/.test(server.stderr)) return `a warning on stderr: ${server.stderr.slice(0, 200)}`;
    });

    const bench = await mock('bench', '--spec', petstore, '--target', server.url, '--duration', '2', '--vus', '4', '--workers', '1', '--json');
    await attempt('mock bench --duration 2: requests answered, no errors', () => {
      if (bench.code !== 0) return `exit ${bench.code}: ${bench.stderr.trim().split('\n').slice(-3).join(' | ')}`;
      const { summary } = JSON.parse(bench.stdout);
      if (!(summary.requests > 0 && summary.responses === summary.requests && summary.errors === 0)) return JSON.stringify(summary).slice(0, 300);
    });
  } finally {
    server.child.kill('SIGTERM');
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
    const code = await server.ended;
    clearTimeout(timer);
    if (server.url !== undefined) check(code === 0 && !/\n\s+at /.test(server.stderr), 'mock serve stops on SIGTERM: exit 0, no stack trace', `exit ${code}: ${server.stderr.trim().slice(-300)}`);
  }

  await attempt('--record wrote fixture files that mock validate-fixtures accepts', async () => {
    const fixtures = path.join(dir, 'fixtures', 'http');
    const count = existsSync(fixtures) ? readdirSync(fixtures).filter((name) => name.endsWith('.json')).length : 0;
    const lint = await mock('validate-fixtures', '--dir', 'fixtures');
    if (count === 0 || lint.code !== 0) return `${count} fixture files; validate-fixtures exit ${lint.code}: ${`${lint.stdout}${lint.stderr}`.trim().slice(0, 300)}`;
  });
  await attempt('--recorder kept the exchanges: mock verify-mocks reads them back', async () => {
    const verify = await mock('verify-mocks', '--spec', petstore, '--capture-db', 'recordings.db', '--output', 'drift.json');
    if (verify.code !== 0 || !existsSync(path.join(dir, 'drift.json'))) return `exit ${verify.code}: ${verify.stderr.trim().slice(0, 300)}`;
    const report = JSON.parse(readFileSync(path.join(dir, 'drift.json'), 'utf8'));
    if (!(report.exchanges > 0)) return `no exchanges in the report: ${JSON.stringify(report).slice(0, 300)}`;
  });

  const workers = await serveWorkers(node, dir, out);
  try {
    await attempt(`mock serve --workers 2: both workers answer on one port (${uwsHere ? 'uWebSockets.js with SO_REUSEPORT' : 'node:http through node:cluster'})`, async () => {
      if (workers.url === undefined) return `${workers.output}${workers.stderr}`.trim().split('\n').slice(-3).join(' | ') || 'no output in 30 s';
      const statuses = await Promise.all(Array.from({ length: 12 }, () => statusOnNewConnection(`${workers.url}/v1/pets/1`)));
      if (statuses.some((status) => status !== 200)) return statuses.join(' ');
      // each worker reports what it answered every second
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const { json, text } = await get(`${workers.url}/__mock/health`);
      const counts = (json?.workers ?? []).map((worker) => worker.requests);
      if (counts.length !== 2 || counts.some((n) => !(n > 0))) return `requests per worker: ${JSON.stringify(counts)} ${text.slice(0, 200)}`;
    });
  } finally {
    workers.child.kill('SIGTERM');
    const timer = setTimeout(() => workers.child.kill('SIGKILL'), 10_000);
    const code = await workers.ended;
    clearTimeout(timer);
    if (workers.url !== undefined) check(code === 0, 'mock serve --workers 2 stops on SIGTERM: exit 0', `exit ${code}: ${workers.stderr.trim().slice(-300)}`);
  }

  if (explicit !== undefined) {
    const { code, stdout, stderr } = await explicit;
    const lines = stderr.trim().split('\n');
    const expected = `server.http_backend is uws, but uWebSockets.js has no build for Node ${major} (ABI ${ABI[major]}) on this system: set it to auto or node to serve with node:http (${NODE_HTTP_THROUGHPUT}), or run mock on Node 22 or 20`;
    check(code === 1 && lines.length === 1 && lines[0] === expected && !stdout.includes('serving on'), 'server.http_backend: uws is a one-line error, exit 1', `exit ${code}: ${stderr.trim().slice(0, 400)}`);
  }
  return results;
}

const nodes = await ensureNodes(majors);
for (const n of nodes) if (n.version !== undefined) console.log(`# Node ${n.major}: ${n.version} (${n.source === 'cache' ? 'cached' : 'downloaded'} in ${path.dirname(path.dirname(n.node))})`);
console.log(`# binaries ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);

const perVersion = await Promise.all(nodes.map((n) => checkVersion(n)));
let passed = 0;
let failed = 0;
for (const [ok, name, why] of perVersion.flat()) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'not ok'} ${passed + failed} - ${name}${ok ? '' : ` # ${why.replace(/\s*\n\s*/g, ' | ')}`}`);
}
console.log(`node-compat: ${passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
