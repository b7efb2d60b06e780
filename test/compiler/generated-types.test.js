// Generated code is type-checked against the runtime's contract: the .ts files of real builds
// compile under `strict` with `mock-compiler/contract` resolved the way a user's project resolves it.
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project, ts } from 'ts-morph';
import { build } from '../../dist/compiler/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = path.resolve(root, '../shared/corpus/openapi');
const contract = path.join(root, 'common/contract/index.ts');

const COMPILER_OPTIONS = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: [],
  // TypeScript's own lib .d.ts files are not under test: checking them (lib.dom and the rest of
  // ES2022's) took most of each check's time. Everything else is checked: the generated files,
  // their validators.d.ts and the contract; the generated code still meets the lib's types.
  skipDefaultLibCheck: true,
};

// custom routes whose bodies and headers are templates: their compiled renderers are typed too
const routes = [
  { path: '/echo/{id}', method: 'GET', response: { headers: { 'x-id': '{{request.path.id}}' }, body: { id: '{{request.path.id}}', at: '{{now}}' } } },
  { path: '/kind', match: { query: { kind: 'cat' } }, response: { body: '{{#if (eq request.query.kind "cat")}}meow{{else}}{{uuid}}{{/if}}' } },
];

/** A project as a user has it: ESM, the tool installed as node_modules/mock-compiler (a link to this repository). */
function project() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-types-'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(root, path.join(dir, 'node_modules', 'mock-compiler'), 'dir');
  return dir;
}

const tsFiles = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).sort().map((f) => path.join(dir, f));

/** Type-checks `files` (ts-morph supplies TypeScript's lib files); returns the diagnostics and the `any` types written in them. */
function check(files) {
  const program = new Project({ compilerOptions: COMPILER_OPTIONS });
  const sources = files.map((file) => program.addSourceFileAtPath(file));
  const diagnostics = program.formatDiagnosticsWithColorAndContext(program.getPreEmitDiagnostics()).replace(/\x1b\[[0-9;]*m/g, '');
  const anys = sources.flatMap((source) => source.getDescendantsOfKind(ts.SyntaxKind.AnyKeyword).map((node) => `${source.getBaseName()}: ${node.getParent().getText()}`));
  return { diagnostics, anys };
}

t.test('generated builds compile under strict against mock-compiler/contract', async (t) => {
  const dir = project();
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const specs = [
    { source: path.join(root, 'examples/petstore.yaml'), routes },
    // Swagger 2.0 with many definitions
    { source: path.join(corpus, 'docker-engine.yaml'), routes: [] },
    // OpenAPI 3.0: many schemas, unions, recursion, patterns
    { source: path.join(corpus, 'ory-kratos.json'), routes: [] },
  ];
  const files = [];
  for (const spec of specs) {
    const built = await build({ specs: [{ source: spec.source }], routes: spec.routes, outDir: 'generated', cwd: dir });
    t.same(fs.readdirSync(built.dir).filter((f) => f.endsWith('.ts')).sort(), ['index.ts', 'responders.ts', 'routes.ts', 'types.ts', 'validators.d.ts'], `${built.name}: the typed files`);
    files.push(...tsFiles(built.dir));
  }
  t.same(files.filter((file) => /@ts-nocheck|@ts-ignore|@ts-expect-error/.test(fs.readFileSync(file, 'utf8'))), [], 'no file turns checking off');

  const resolve = (file) => ts.resolveModuleName('mock-compiler/contract', file, COMPILER_OPTIONS, ts.sys).resolvedModule?.resolvedFileName;
  t.equal(fs.realpathSync(resolve(files[0])), contract, 'mock-compiler/contract resolves through the installed package');
  // the checked-in build, as a user's project holds it: its own package.json makes the build folder
  // a package scope of its own, so inside this repository `mock-compiler/contract` is no self-reference
  const checkedIn = path.join(dir, 'generated/checked-in');
  fs.cpSync(path.join(root, 'generated/petstore'), checkedIn, { recursive: true });
  t.equal(fs.realpathSync(resolve(path.join(checkedIn, 'index.ts'))), contract, 'the checked-in build too');

  const { diagnostics, anys } = check([...files, ...tsFiles(checkedIn)]);
  t.equal(diagnostics.slice(0, 5000), '', 'no diagnostics');
  t.same(anys, [], 'no `any`');
});

t.test('a build that does not meet the contract fails to compile', (t) => {
  const dir = project();
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const file of tsFiles(path.join(root, 'generated/petstore'))) fs.copyFileSync(file, path.join(dir, path.basename(file)));
  const responders = path.join(dir, 'responders.ts');
  fs.writeFileSync(responders, fs.readFileSync(responders, 'utf8').replace('g.email()', 'g.emailAddress()'));
  const index = path.join(dir, 'index.ts');
  fs.writeFileSync(index, fs.readFileSync(index, 'utf8').replace("export { createResponders } from './responders.js';\n", ''));
  const text = check(tsFiles(dir)).diagnostics;
  t.match(text, /Property 'emailAddress' does not exist on type 'GenRuntime'/, 'a call the generator runtime does not have');
  t.match(text, /Property 'createResponders' is missing .* 'BuildModule'/, 'an export the runtime loads');
  t.end();
});
