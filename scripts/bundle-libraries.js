#!/usr/bin/env node
// The last step of `npm run build`: bundles the code generators that `mock build` runs (compiler/bundled/*.ts)
// with their packages into dist/compiler/bundled/, over what tsc wrote there, so that the published
// package ships their code and not their dependencies, whose formatters are most of their size: prettier
// (12 MB, never called: types.ts is written with format: false) and dprint-node (24 MB of native
// binaries, replaced by dprint's WebAssembly build of the same plugin). Each bundle gets a file of the
// licences of the packages it holds. Without this step (tsc alone, in a clone) the same files import
// the packages, development dependencies, and work the same.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'compiler', 'bundled');
const out = path.join(root, 'dist', 'compiler', 'bundled');

/** The libraries bundled, each with the stand-ins of the dependencies it does not need as shipped. */
const BUNDLES = {
  'json-schema-to-typescript': { prettier: path.join(source, 'prettier.ts') },
  'ts-proto': { 'dprint-node': path.join(source, 'dprint-node.ts') },
  redocly: {},
};
/** Dependencies of the stand-ins: installed with the package, read at run time (a wasm file beside its module). */
const INSTALLED = ['@dprint/formatter', '@dprint/typescript'];

for (const [name, alias] of Object.entries(BUNDLES)) {
  const bundle = await rolldown({
    input: path.join(source, `${name}.ts`),
    platform: 'node',
    external: [/^node:/, ...builtinModules, ...INSTALLED],
    resolve: { alias },
    logLevel: 'warn',
  });
  const file = `${name}.js`;
  const { output } = await bundle.write({
    file: path.join(out, file),
    format: 'esm',
    // one file each: a library's lazily loaded parts (Redocly's lint loads its rule sets so) ship inside it
    codeSplitting: false,
    banner: `// ${name} and the packages it needs, bundled by scripts/bundle-libraries.js: their licences are in ${name}.licenses.txt\n`,
  });
  await bundle.close();
  writeFileSync(path.join(out, `${name}.licenses.txt`), licences(output[0].moduleIds));
}

/** The name, version, licence and licence text of every package a bundle holds code of. */
function licences(moduleIds) {
  const dirs = new Set();
  for (const id of moduleIds) {
    const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(id.replaceAll('\\', '/'));
    if (match) dirs.add(match[1]);
  }
  const entries = [...dirs].map((dir) => {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = licenceFile ? readFileSync(path.join(dir, licenceFile), 'utf8').trim() : `${pkg.license} (the package ships no licence file)`;
    return { title: `${pkg.name}@${pkg.version} (${pkg.license})`, text };
  });
  entries.sort((a, b) => (a.title < b.title ? -1 : 1));
  return entries.map(({ title, text }) => `${title}\n${'='.repeat(title.length)}\n\n${text}\n`).join('\n');
}
