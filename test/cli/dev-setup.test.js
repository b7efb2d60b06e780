// mock dev-setup: the generated clients type-check against the frameworks' own types, and call a running mock
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import ts from 'typescript-5';
import { corpus, root, runCli, startMock, tmpdir } from '../helpers/cli.js';
import { plainNode } from '../helpers/plain-node.js';

const run = promisify(execFile);
const petstore = path.join(root, 'examples', 'petstore.yaml');
const FRAMEWORKS = ['react', 'vue', 'angular', 'svelte'];

/** A frontend project: the repository's node_modules (the frameworks' types are development dependencies), one strict tsconfig. */
const project = tmpdir();
symlinkSync(path.join(root, 'node_modules'), path.join(project, 'node_modules'), 'dir');
writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
t.teardown(() => rmSync(project, { recursive: true, force: true }));

const builds = tmpdir();
const server = await startMock(['--spec', petstore, '--out', builds]);
t.teardown(async () => {
  await server.stop();
  rmSync(builds, { recursive: true, force: true });
});

const devSetup = (args, cwd = project) => runCli(['dev-setup', ...args], { cwd });

/** Every .ts file below `dir` written beside itself as .js (the SDK runs in Node as a bundler would ship it). */
function transpile(dir) {
  for (const file of readdirSync(dir, { recursive: true })) {
    if (!file.endsWith('.ts')) continue;
    const full = path.join(dir, file);
    const { outputText } = ts.transpileModule(readFileSync(full, 'utf8'), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, experimentalDecorators: true },
    });
    writeFileSync(full.replace(/\.ts$/, '.js'), outputText);
  }
}

/** Calls the mock through a generated client in a Node process of its own; prints one JSON line. */
const CALLER = `
const [framework, folder] = process.argv.slice(2);
let list, one;
if (framework === 'angular') {
  await import('@angular/compiler'); // the partially compiled Angular packages link at run time in Node
  const { Injector, createEnvironmentInjector, provideZonelessChangeDetection, runInInjectionContext, ɵINJECTOR_SCOPE } = await import('@angular/core');
  const { HttpClient, provideHttpClient, withFetch } = await import('@angular/common/http');
  const { firstValueFrom } = await import('rxjs');
  const injector = createEnvironmentInjector([provideHttpClient(withFetch()), provideZonelessChangeDetection(), { provide: ɵINJECTOR_SCOPE, useValue: 'root' }], Injector.NULL);
  const sdk = await import('./' + folder + '/sdk.gen.js');
  list = await sdk.listPets({ query: { limit: 2 }, injector });
  // the injectable service builds, in an injection context as in a component, the HttpRequest that Angular's HttpClient sends
  const { MockApiRequests } = await import('./' + folder + '/@angular/common.gen.js');
  const request = runInInjectionContext(injector, () => injector.get(MockApiRequests).showPetById({ path: { petId: 1 } }));
  one = await firstValueFrom(injector.get(HttpClient).request(request.method, request.urlWithParams, { responseType: 'json' }));
} else {
  const sdk = await import('./' + folder + '/sdk.gen.js');
  list = await sdk.listPets({ query: { limit: 2 } });
  if (framework === 'svelte') {
    // @tanstack/svelte-query's entry imports .svelte components, which Node cannot load: its query options are type-checked only
    one = (await sdk.showPetById({ path: { petId: 1 } })).data;
  } else {
    const query = await import('./' + folder + '/@tanstack/' + framework + '-query.gen.js');
    const options = query.showPetByIdOptions({ path: { petId: 1 } });
    one = await options.queryFn({ queryKey: options.queryKey, signal: new AbortController().signal });
  }
}
console.log(JSON.stringify({ status: list.response.status, first: list.data[0], one }));
`;
writeFileSync(path.join(project, 'call.mjs'), CALLER);

t.test('each framework: a typed client aimed at the mock, its proxy snippet, and real answers through the SDK', async (t) => {
  const results = await Promise.all(FRAMEWORKS.map((framework) => devSetup([framework, '--spec', petstore, '--output', framework, '--base-url', server.url])));
  for (const [i, framework] of FRAMEWORKS.entries()) {
    const res = results[i];
    t.equal(res.code, 0, `${framework}: ${res.stderr}`);
    t.match(res.stdout, new RegExp(`^wrote \\d+ files of the ${framework} client to ${framework}$`, 'm'));
    t.match(res.stdout, `base URL: ${server.url}/v1`, 'the mock, with the base path of the description');
    t.match(readFileSync(path.join(project, framework, 'client.gen.ts'), 'utf8'), `baseUrl: '${server.url}/v1'`);
    if (framework === 'angular') t.match(res.stdout, `proxy.conf.json (ng serve --proxy-config proxy.conf.json, or "proxyConfig" in angular.json):\n{\n  "/v1": {\n    "target": "${server.url}"`);
    else t.match(res.stdout, `vite.config.ts:\nexport default defineConfig({\n  server: {\n    proxy: {\n      '/v1': { target: '${server.url}', changeOrigin: true },`);
  }
  t.ok(existsSync(path.join(project, 'react', '@tanstack', 'react-query.gen.ts')), 'TanStack Query options for react');
  t.match(readFileSync(path.join(project, 'angular', '@angular', 'common.gen.ts'), 'utf8'), "@Injectable({ providedIn: 'root' })\nexport class MockApiResources", 'injectable services for angular');

  for (const framework of FRAMEWORKS) transpile(path.join(project, framework));
  const calls = await Promise.all(FRAMEWORKS.map((framework) => run(process.execPath, ['call.mjs', framework, framework], { cwd: project })));
  for (const [i, framework] of FRAMEWORKS.entries()) {
    const answer = JSON.parse(calls[i].stdout);
    t.equal(answer.status, 200, `${framework}: GET /v1/pets?limit=2 through listPets`);
    t.match(answer.first, { id: Number, name: String, kind: /^(cat|dog|bird)$/ }, `${framework}: a pet of the generated list`);
    t.match(answer.one, { id: 1, name: 'Tom', kind: 'cat' }, `${framework}: GET /v1/pets/1 (the description's example)`);
  }
});

t.test('Swagger 2.0 and OpenAPI 3.1 descriptions; the same input writes the same files', async (t) => {
  const swagger = await devSetup(['react', '--spec', path.join(corpus, 'openapi', 'oai-v2.0-petstore.json'), '--output', 'swagger2']);
  t.equal(swagger.code, 0, swagger.stderr);
  t.match(readFileSync(path.join(project, 'swagger2', 'client.gen.ts'), 'utf8'), "baseUrl: 'http://localhost:3000/v1'", 'basePath of Swagger 2.0, port 3000 by default');
  t.match(readFileSync(path.join(project, 'swagger2', 'sdk.gen.ts'), 'utf8'), 'export const listPets');
  const openapi31 = await devSetup(['vue', '--spec', path.join(corpus, 'openapi', 'oai-v3.1-tictactoe.yaml'), '--output', 'openapi31']);
  t.equal(openapi31.code, 0, openapi31.stderr);

  const again = await devSetup(['react', '--spec', path.join(corpus, 'openapi', 'oai-v2.0-petstore.json'), '--output', 'swagger2']);
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, /^wrote 0 files of the react client to swagger2 \(\d+ unchanged\)$/m, 'a second run finds every file as it would write it');
});

t.test('the generated code type-checks with tsc --strict against the frameworks, TanStack Query and Angular', async (t) => {
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], experimentalDecorators: true, skipLibCheck: true, types: [] },
      include: [...FRAMEWORKS, 'swagger2', 'openapi31'].map((folder) => `${folder}/**/*.ts`),
    }),
  );
  // each framework's own use of the client, as docs/dev-setup.md shows it
  const USES = {
    react:
      "import { useQuery } from '@tanstack/react-query';\nimport { showPetByIdOptions } from './@tanstack/react-query.gen.js';\nexport const usePet = () => useQuery(showPetByIdOptions({ path: { petId: 1 } })).data?.name;\n",
    vue: "import { useQuery } from '@tanstack/vue-query';\nimport { listPetsOptions } from './@tanstack/vue-query.gen.js';\nexport const usePets = () => useQuery(listPetsOptions({ query: { limit: 10 } })).data.value?.[0]?.kind;\n",
    svelte:
      "import { createQuery } from '@tanstack/svelte-query';\nimport { showPetByIdOptions } from './@tanstack/svelte-query.gen.js';\nexport const pet = () => createQuery(() => showPetByIdOptions({ path: { petId: 1 } })).data?.name;\n",
    angular:
      "import { Component, inject } from '@angular/core';\nimport { MockApiResources } from './@angular/common.gen.js';\n@Component({ selector: 'app-pet', template: '{{ pet.value()?.name }}' })\nexport class PetComponent {\n  readonly pet = inject(MockApiResources).showPetById(() => ({ path: { petId: 1 } }));\n}\n",
  };
  for (const [framework, text] of Object.entries(USES)) writeFileSync(path.join(project, framework, 'use.ts'), text);
  // the project's own TypeScript (typescript-5 also installs a tsc), run without the test runner's hooks
  const strict = () => run(...plainNode([path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--strict', '--noEmit', '--pretty', 'false']), { cwd: project }).catch((e) => e);
  const checked = await strict();
  t.equal(checked.code ?? 0, 0, `${checked.stdout}${checked.stderr}`);
  // the check reaches the frameworks: a wrong use of the generated query options is an error
  writeFileSync(
    path.join(project, 'react', 'misuse.ts'),
    "import { useQuery } from '@tanstack/react-query';\nimport { showPetByIdOptions } from './@tanstack/react-query.gen.js';\nexport const use = () => useQuery(showPetByIdOptions({ path: { petId: 'one' } }));\n",
  );
  const wrong = await strict();
  rmSync(path.join(project, 'react', 'misuse.ts'));
  t.not(wrong.code ?? 0, 0);
  t.match(wrong.stdout, /misuse\.ts.*error TS2322/);
});

t.test('mock.yaml gives the description and the port; warnings of the generator are notes on stderr', async (t) => {
  const spec = {
    openapi: '3.0.3',
    info: { title: 'odd', version: '1' },
    servers: [{ url: '/api' }],
    paths: { '/things': { get: { operationId: 'listThings', responses: { 200: { description: 'ok', content: { 'application/json': { schema: { enum: [{}] } } } } } } } },
  };
  const cwd = t.testdir({ 'mock.yaml': 'specs: [odd.json]\nserver: { http_port: 4010 }\n', 'odd.json': JSON.stringify(spec) });
  const res = await devSetup(['vue'], cwd);
  t.equal(res.code, 0, res.stderr);
  t.match(readFileSync(path.join(cwd, 'src', 'api', 'client.gen.ts'), 'utf8'), "baseUrl: 'http://localhost:4010/api'");
  t.match(res.stdout, "'/api': { target: 'http://localhost:4010', changeOrigin: true }");
  t.equal(res.stderr, 'mock dev-setup: note: the generator: unhandled "object" typeof value "[object Object]" for enum [ {} ]\n');
});

t.test('an existing file of other content is refused without --force (nothing written), overwritten with it', async (t) => {
  // the svelte client the first test wrote, with the same arguments (a run of its own to write it cost a dev-setup start)
  const args = ['svelte', '--spec', petstore, '--output', 'svelte', '--base-url', server.url];
  const mine = path.join(project, 'svelte', 'sdk.gen.ts');
  writeFileSync(mine, '// mine\n');
  const other = path.join(project, 'svelte', 'types.gen.ts');
  rmSync(other);

  const refused = await devSetup(args);
  t.equal(refused.code, 1);
  t.equal(refused.stderr, 'svelte/sdk.gen.ts exists: pass --force to overwrite it, or --output another folder (nothing was written)\n');
  t.equal(readFileSync(mine, 'utf8'), '// mine\n', 'the file is kept');
  t.notOk(existsSync(other), 'no other file was written either');

  const forced = await devSetup([...args, '--force']);
  t.equal(forced.code, 0, forced.stderr);
  t.match(forced.stdout, /^wrote 2 files of the svelte client to svelte \(\d+ unchanged\)$/m);
  t.match(readFileSync(mine, 'utf8'), 'export const listPets');
});

t.test('bad input: one line naming it and the fix, non-zero exit, nothing written', async (t) => {
  const cwd = t.testdir({ 'broken.yaml': 'openapi: 3.0.3\npaths: [\n', 'notes.yaml': 'title: not an API\n' });
  const cases = [
    [['ember', '--spec', petstore], /^mock dev-setup: unknown framework "ember": give one of react, vue, angular, svelte, e\.g\. mock dev-setup react --spec api\.yaml\n$/],
    [['react', '--spec', 'missing.yaml'], /^spec not found: missing\.yaml \(checked .*missing\.yaml; pass an existing file or URL with --spec\)\n$/],
    [['react', '--spec', 'broken.yaml'], /^broken\.yaml:3:1: invalid YAML\/JSON: .*\(fix the syntax at that position\)\n$/],
    [['react', '--spec', 'notes.yaml'], /^notes\.yaml: unsupported description version null .*\n$/],
    [['react'], /^mock dev-setup: no API description: pass --spec api\.yaml \(or list one under specs in mock\.yaml\)\n$/],
    [
      ['react', '--spec', path.join(corpus, 'graphql', 'swapi.graphql')],
      /^.*swapi\.graphql: mock dev-setup writes clients of OpenAPI 3\.x and Swagger 2\.0 descriptions, not of GraphQL schemas or \.proto files \(docs\/dev-setup\.md says what to use for those\)\n$/,
    ],
    [['react', '--spec', petstore, '--dir', 'web'], /^mock dev-setup: --dir web is not a folder: give the folder of the frontend project\n$/],
    [['vue', '--spec', petstore, '--base-url', 'localhost:3000'], /^mock dev-setup: --base-url localhost:3000 is not a scheme, host and port such as http:\/\/localhost:3000\n$/],
  ];
  const results = await Promise.all(cases.map(([args]) => devSetup(args, cwd)));
  for (const [i, [args, line]] of cases.entries()) {
    t.not(results[i].code, 0, args.join(' '));
    t.match(results[i].stderr, line, args.join(' '));
  }
  t.notOk(existsSync(path.join(cwd, 'src')), 'nothing written');
});
