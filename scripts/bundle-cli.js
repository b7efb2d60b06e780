// Bundles what the `mock` command runs (every command and the command_not_found hook) from the
// compiled dist/ into dist/bundle/: one file per command, shared code in chunks, packages left
// to node_modules. Node 20's ES module loader spends about half a millisecond on each of the ~600
// modules `mock serve` loads: a bundle starts every command in about half the time (the start a
// CI job or a test pays on every run). dist/ stays whole for the SDK, the worker threads and the
// tests that import modules. Rolldown (Vite's bundler, already a development dependency) keeps
// the code readable: no minification, the modules' own names.
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
entries['hooks/command-not-found'] = path.join(root, 'dist/src/cli/command-not-found.js');

await build({
  input: entries,
  platform: 'node',
  // packages and Node's own modules load from where they are installed, and the code generators
  // bundled with their packages (scripts/bundle-libraries.js) from dist/compiler/bundled
  external: (id) => (!id.startsWith('.') && !path.isAbsolute(id)) || id.includes(`${path.sep}dist${path.sep}compiler${path.sep}bundled${path.sep}`),
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
