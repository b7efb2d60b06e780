// runtime/terminal/openapi/verify-build.ts: no generated code is imported unless its manifest vouches for it.
import t from 'tap';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { loadBuild } from '../../../dist/runtime/terminal/openapi/index.js';
import { verifyBuild } from '../../../dist/runtime/terminal/openapi/verify-build.js';
import { corpus, root, runMock, tmpdir } from '../../helpers/cli.js';

const source = path.join(root, 'generated/petstore');
const copy = (t) => {
  const dir = path.join(t.testdir(), 'petstore');
  cpSync(source, dir, { recursive: true });
  return dir;
};

t.test('a build as mock build wrote it loads', async (t) => {
  const dir = copy(t);
  t.doesNotThrow(() => verifyBuild(dir));
  t.equal((await loadBuild(dir, true)).name, 'petstore');
});

t.test('an edited, missing or unlisted file refuses the build before anything is imported', async (t) => {
  const edited = copy(t);
  writeFileSync(path.join(edited, 'index.js'), `${readFileSync(path.join(edited, 'index.js'), 'utf8')}\nglobalThis.pwned = true;\n`);
  const error = await t.rejects(loadBuild(edited, true), { code: 'MOCK_ERR_BUILD_TAMPERED' });
  t.match(error.message, /index\.js does not match the hash in its manifest\.json .* run mock build to regenerate it$/);
  t.equal(globalThis.pwned, undefined, 'the edited module never ran');

  const missing = copy(t);
  rmSync(path.join(missing, 'types.ts'));
  t.throws(() => verifyBuild(missing), /types\.ts is missing/);

  const noManifest = copy(t);
  rmSync(path.join(noManifest, 'manifest.json'));
  t.throws(() => verifyBuild(noManifest), /manifest\.json is missing/);

  const unlisted = copy(t);
  const manifest = JSON.parse(readFileSync(path.join(unlisted, 'manifest.json'), 'utf8'));
  delete manifest.files['routes.js'];
  writeFileSync(path.join(unlisted, 'manifest.json'), JSON.stringify(manifest));
  t.throws(() => verifyBuild(unlisted), /routes\.js is not listed in manifest\.json/);

  // without its package.json, a build in a CommonJS project would not load as ES modules
  const noPackageJson = copy(t);
  const withoutPackageJson = JSON.parse(readFileSync(path.join(noPackageJson, 'manifest.json'), 'utf8'));
  delete withoutPackageJson.files['package.json'];
  writeFileSync(path.join(noPackageJson, 'manifest.json'), JSON.stringify(withoutPackageJson));
  t.throws(() => verifyBuild(noPackageJson), /package\.json is not listed in manifest\.json/);
  const retyped = copy(t);
  writeFileSync(path.join(retyped, 'package.json'), '{ "type": "commonjs" }\n');
  t.throws(() => verifyBuild(retyped), /package\.json does not match the hash in its manifest\.json/);

  const escaping = copy(t);
  manifest.files = { ...JSON.parse(readFileSync(path.join(escaping, 'manifest.json'), 'utf8')).files, '../x.js': 'x' };
  writeFileSync(path.join(escaping, 'manifest.json'), JSON.stringify(manifest));
  t.throws(() => verifyBuild(escaping), /names a file outside the build/);
});

t.test("the typed message code of a build's grpc/ subfolder is verified like its other files; other paths are refused", async (t) => {
  const listing = (dir, files) => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    Object.assign(manifest.files, files);
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  };
  const code = 'export const x = 1;\n';
  const dir = copy(t);
  mkdirSync(path.join(dir, 'grpc', 'examples'), { recursive: true });
  writeFileSync(path.join(dir, 'grpc', 'examples', 'x.ts'), code);
  listing(dir, { 'grpc/examples/x.ts': createHash('sha256').update(code).digest('hex') });
  t.doesNotThrow(() => verifyBuild(dir));
  writeFileSync(path.join(dir, 'grpc', 'examples', 'x.ts'), `${code}// edited\n`);
  t.throws(() => verifyBuild(dir), /grpc\/examples\/x\.ts does not match the hash in its manifest\.json/);
  for (const name of ['grpc/../x.ts', 'grpc/./x.ts', 'grpc//x.ts', 'other/x.ts', 'grpc/x.js', '/etc/x.ts']) {
    const planted = copy(t);
    listing(planted, { [name]: 'x' });
    t.throws(() => verifyBuild(planted), /names a file outside the build/, name);
  }
});

t.test('a folder imported before loads its new build whole, even when index.js re-exports a name the old modules lacked', async (t) => {
  const dir = copy(t);
  const first = await loadBuild(dir, true);
  t.equal(first.callbacks, undefined, 'the petstore declares no callbacks');
  // the same folder rebuilt from a description with callbacks: index.js now re-exports `callbacks` from ./routes.js
  const out = tmpdir();
  const built = await runMock(['build', '--spec', path.join(corpus, 'openapi', 'oai-v3.0-callback-example.yaml'), '--out', out, '--name', 'petstore']);
  t.equal(built.code, 0, built.stderr);
  rmSync(dir, { recursive: true });
  cpSync(path.join(out, 'petstore'), dir, { recursive: true });
  const second = await loadBuild(dir, true);
  t.ok(Array.isArray(second.callbacks) && second.callbacks.length > 0, 'the new build, callbacks included');
  t.not(second.operations, first.operations, "the new build's routes, not the cached ones");
});
