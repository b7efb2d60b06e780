// Bundles what the `mock` command runs (oclif, every command, the command_not_found hook and the
// child process `mock serve` builds in) from the compiled dist/ into dist/bundle/: one file per entry,
// shared code in chunks. Node 20's module loaders spend about half a millisecond on each module
// they find, read and compile one by one (~600 of ours and ~450 of packages for `mock serve`): the
// bundle starts every command in about half the time (the start a CI job or a test pays on every
// run). dist/ stays whole for the SDK, the worker threads and the tests that import modules.
// Rolldown (Vite's bundler, already a development dependency) keeps the code readable: no
// minification, the modules' own names.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const commands = path.join(root, 'dist/src/commands');

/** `serve`, `fixtures/import`: a command's file under dist/src/commands, without `.js`. */
const entries = Object.fromEntries(
  readdirSync(commands, { recursive: true })
    .filter((file) => file.endsWith('.js'))
    .map((file) => [`commands/${file.slice(0, -3).split(path.sep).join('/')}`, path.join(commands, file)]),
);
entries.oclif = path.join(root, 'dist/src/cli/oclif.js');
entries['hooks/command-not-found'] = path.join(root, 'dist/src/cli/command-not-found.js');
entries['workers/build-worker'] = path.join(root, 'dist/src/cli/build-worker.js');
entries['workers/serve-worker'] = path.join(root, 'dist/src/cli/workers/serve-worker.js');

/**
 * Packages that load from node_modules: oclif's plugins (with their own copy of oclif for their own
 * commands: `mock help`); packages that start workers or read files from their own folder (pino's
 * transports, piscina, WebAssembly and native binaries) or evaluate `require` (hdr-histogram-js);
 * one copy of graphql and of protobufjs (their objects cross package boundaries and are checked
 * with instanceof); and the large ones only some commands load. Every other package is bundled
 * where it is imported: its files would otherwise be found and compiled one by one at every start
 * (they stay dependencies: the SDK under dist/ imports them, and their licences ship with them).
 */
const EXTERNAL = new Set([
  '@oclif/plugin-help',
  '@oclif/plugin-not-found',
  'uWebSockets.js',
  'pino',
  'piscina',
  'node-sqlite3-wasm',
  '@dprint/formatter',
  '@dprint/typescript',
  'hdr-histogram-js',
  'graphql',
  'graphql-jit',
  'graphql-ws',
  'graphql-query-complexity',
  '@grpc/grpc-js',
  '@grpc/proto-loader',
  'protobufjs',
  '@faker-js/faker',
  'swagger2openapi',
  'sucrase',
  // CommonJS that names its own file (__filename), which an ES module bundle does not define
  'write-file-atomic',
  // npm's own fetchers of `mock scenario` (CommonJS that spawns git and reads its own files), loaded by that topic only
  'pacote',
  '@npmcli/git',
  'npm-registry-fetch',
  'libnpmpublish',
  // `mock mcp` only: the MCP SDK (with zod, whose schemas it checks by identity) loads when that command runs
  '@modelcontextprotocol/sdk',
  'zod',
  // the client generator of `mock dev-setup` (copies its client files from its own folder) and the TypeScript 5 it prints code with
  '@hey-api/openapi-ts',
  'typescript-5',
  // optional peers of `mock tui`, which checks that they are installed before it loads them
  'ink',
  'react',
]);
const packageName = (id) =>
  id
    .split('/')
    .slice(0, id.startsWith('@') ? 2 : 1)
    .join('/');
const external = (id) =>
  id.startsWith('node:') ||
  EXTERNAL.has(packageName(id)) ||
  // the code generators bundled with their packages (scripts/bundle-libraries.js) load from dist/compiler/bundled
  id.includes(`${path.sep}dist${path.sep}compiler${path.sep}bundled${path.sep}`);

await build({
  input: entries,
  platform: 'node',
  external,
  logLevel: 'warn',
  output: {
    dir: path.join(root, 'dist/bundle'),
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    cleanDir: true,
    // `--debug` stack traces name the compiled modules (bin/run.js turns the maps on for it)
    sourcemap: true,
    sourcemapExcludeSources: true,
  },
});
