// The package as npm publishes it: packed, installed globally under its own registry name, it puts
// `mock` on the PATH, npx runs it by that name, and builds resolve its contract types under it. The
// registry's `mock` is someone else's package (0.1.1 when this was written): `npx mock` outside
// this repository fetched that one and failed with "could not determine executable to run".
import t from 'tap';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { root, tmpdir } from '../helpers/cli.js';

/** Names on the npm registry that belong to other packages. */
const TAKEN = ['mock'];

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

// a user's shell: without the variables npm sets for what it runs (such as this test), npm_command
// among them, which tells mock init it runs under npm; npm's configuration (npm_config_*) stays
const shell = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') || name.startsWith('npm_config_')));

function run(file, args, { cwd, env = {} }) {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...shell, ...env }, timeout: 240_000 }, (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }));
  });
}

/** Passes when the command exited 0; its stderr is the failure's message. */
const succeeded = (t, result, command) => t.equal(result.code, 0, result.code === 0 ? command : `${command}: ${result.stderr}`);

t.test('the package has a name of its own and keeps the command mock', async (t) => {
  t.notOk(TAKEN.includes(pkg.name), `${pkg.name} is not another package's name on the registry`);
  t.same(Object.keys(pkg.bin), ['mock'], 'the command is mock');
  const generated = fs.readFileSync(path.join(root, 'generated/petstore/index.ts'), 'utf8');
  t.match(generated, `from '${pkg.name}/contract'`, 'the checked-in build imports the contract by the package name');
});

t.test('the package says where it lives, under which licence, and runs no script of its own at install', async (t) => {
  t.match(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) \d{4} the mock authors\n/, 'LICENSE: MIT');
  t.equal(pkg.license, 'MIT');
  const home = /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/;
  const repo = pkg.homepage.replace(/#readme$/, '');
  t.match(repo, home, 'homepage is the repository page');
  t.equal(pkg.repository.url, `git+${repo}.git`, 'repository: the same repository');
  t.equal(pkg.bugs.url, `${repo}/issues`, 'bugs: its issues');
  // npm 11.16+ lists a package's own `prepare` among the install scripts to review; prepack runs on pack only
  t.notOk(pkg.scripts.prepare, 'no prepare script');
  t.equal(pkg.scripts.prepack, 'npm run build', 'the build runs when packing');
  t.match(pkg.scripts.start, /^npm run build && /, 'npm start builds first (npm install no longer does)');
  t.match(pkg.scripts.test, /^npm run build && /, 'npm test builds first');
  // every dependency with an install script is decided in allowScripts (approved or denied), so npm reports none
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const scripted = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript).map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 13));
  t.ok(scripted.length > 0, 'the lockfile has dependencies with install scripts');
  for (const name of scripted) t.type(pkg.allowScripts?.[name], 'boolean', `allowScripts decides ${name}`);
  // the code generators of mock build ship bundled by the build (scripts/bundle-libraries.js), without their formatters
  t.match(pkg.scripts.build, / && node scripts\/bundle-libraries\.js /, 'npm run build bundles them');
  t.match(pkg.scripts.build, / && node scripts\/bundle-cli\.js$/, 'and then the command line (dist/bundle)');
  for (const name of ['json-schema-to-typescript', 'ts-proto', '@redocly/openapi-core']) {
    t.ok(!pkg.dependencies[name] && pkg.devDependencies[name], `${name}: a development dependency, its code bundled`);
  }
  // the terminal dashboard's libraries serve nothing: optional peers, present in a clone
  for (const name of ['ink', 'react']) {
    t.notOk(pkg.dependencies[name], `${name} is not installed with the package`);
    t.ok(pkg.peerDependenciesMeta?.[name]?.optional && pkg.devDependencies[name], `${name}: an optional peer, a development dependency`);
  }
});

t.test('a clone not built yet says how to build it', async (t) => {
  const dir = tmpdir();
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(path.join(root, 'bin'), path.join(dir, 'bin'), { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const result = await run(process.execPath, [path.join(dir, 'bin/run.js'), 'serve'], { cwd: dir });
  t.equal(result.code, 1);
  t.match(result.stderr, /^mock: not built yet \(no dist\/ in .*\): run `npm run build` there once/, result.stderr);
});

t.test('installed from the packed tarball, mock runs under the new name', async (t) => {
  const dir = tmpdir();
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const npmEnv = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  // dist is already built (tests run against it): packing needs no prepare
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, env: npmEnv });
  succeeded(t, packed, 'npm pack');
  const [{ filename, name, files }] = JSON.parse(packed.stdout);
  t.equal(name, pkg.name, 'packed under the package name');
  // the built web dashboard and GraphiQL ship (mock serve needs no build step), their sources do not
  for (const page of ['dashboard', 'graphiql']) {
    const shipped = files.map((f) => f.path).filter((p) => p.startsWith(`${page}/`)).sort();
    const bundle = fs
      .readdirSync(path.join(root, page, 'dist'), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
      .sort();
    t.same(shipped, bundle, `every file of ${page}/dist and no ${page} source`);
  }
  t.notOk(files.some((f) => f.path.startsWith('node_modules/')), 'no bundled dependency');
  const paths = new Set(files.map((f) => f.path));
  for (const file of ['LICENSE', 'README.md', 'package.json']) t.ok(paths.has(file), `${file} ships`);
  // the README's and the docs' relative links resolve on the registry's page and in the installed copy
  const linked = new Set();
  for (const page of ['README.md', ...[...paths].filter((p) => /^docs\/[^/]+\.md$/.test(p))]) {
    for (const [, target] of fs.readFileSync(path.join(root, page), 'utf8').matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)/g)) {
      linked.add(path.posix.normalize(path.posix.join(path.posix.dirname(page), target)));
    }
  }
  t.ok([...linked].some((p) => p.startsWith('docs/screenshots/')), 'the README shows screenshots from docs/');
  t.same([...linked].filter((p) => !paths.has(p)), [], 'every relative link of the README and docs/ is a packed file');

  const prefix = path.join(dir, 'global');
  const installed = await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', path.join(dir, filename)], { cwd: dir, env: npmEnv });
  succeeded(t, installed, 'npm install -g');
  t.notMatch(installed.stderr, new RegExp(`install-scripts +${pkg.name}@`), 'npm lists no install script of the package itself');
  const binDir = path.join(prefix, 'bin');
  const pathEnv = { PATH: `${binDir}${path.delimiter}${process.env.PATH}` };

  const empty = path.join(dir, 'empty');
  fs.mkdirSync(empty);
  const version = await run(path.join(binDir, 'mock'), ['--version'], { cwd: empty });
  t.match(version.stdout, new RegExp(`^${pkg.name}/${pkg.version} `), `${binDir}/mock is this tool`);
  // npx finds the installed package by its name and runs its one bin, mock
  const npx = await run('npx', ['--prefix', path.join(prefix, 'lib'), pkg.name, '--help'], { cwd: empty, env: { ...npmEnv, ...pathEnv } });
  succeeded(t, npx, `npx ${pkg.name} --help`);
  t.match(npx.stdout, /\$ mock \[COMMAND\]/, `npx ${pkg.name} --help is mock's help`);

  // a newcomer's first commands, from an empty directory
  const init = await run('mock', ['init', 'demo'], { cwd: empty, env: pathEnv });
  succeeded(t, init, 'mock init demo');
  t.match(init.stdout, 'Next: cd demo && mock serve', 'the installed mock is on the PATH');
  const demo = path.join(empty, 'demo');
  const built = await run('mock', ['build'], { cwd: demo, env: pathEnv });
  succeeded(t, built, 'mock build');
  t.ok(fs.existsSync(path.join(demo, 'generated/api/types.ts')), 'types.ts written (json-schema-to-typescript, bundled)');

  // the code generators ship bundled (npm run build, scripts/bundle-libraries.js): neither their
  // packages nor the formatters they pull in (prettier; dprint-node's native binaries) are installed
  const installedDir = path.join(prefix, 'lib', 'node_modules', pkg.name);
  const ls = await run('npm', ['ls', '--all', '--json', '--prefix', installedDir], { cwd: dir, env: npmEnv });
  const names = new Set();
  // npm ls names the root's development dependencies too, as missing: only what is installed counts
  const collect = (deps = {}) => {
    for (const [name, dep] of Object.entries(deps)) {
      if (dep.missing) continue;
      names.add(name);
      collect(dep.dependencies);
    }
  };
  collect(JSON.parse(ls.stdout).dependencies);
  t.ok(names.has('@grpc/grpc-js') && names.has('@dprint/typescript'), `npm ls lists the installed tree (${names.size} packages)`);
  t.same(['json-schema-to-typescript', 'ts-proto', 'ts-poet', 'prettier', 'dprint-node', '@redocly/openapi-core'].filter((name) => names.has(name)), [], 'none of them is installed');
  // ts-proto's typed message code, formatted by dprint's WebAssembly build instead of dprint-node
  const protos = path.join(empty, 'protos');
  fs.mkdirSync(path.join(protos, 'proto'), { recursive: true });
  fs.writeFileSync(path.join(protos, 'proto', 'hello.proto'), 'syntax = "proto3";\npackage hello;\nmessage HelloRequest { string name = 1; }\nservice Greeter { rpc SayHello (HelloRequest) returns (HelloRequest); }\n');
  const grpcBuilt = await run('mock', ['build'], { cwd: protos, env: pathEnv });
  succeeded(t, grpcBuilt, 'mock build of a .proto');
  const typed = fs.readFileSync(path.join(protos, 'generated/proto/grpc/hello.ts'), 'utf8');
  t.match(typed, /^\/\/ {3}protoc-gen-ts_proto {2}v\d+\.\d+\.\d+$/m, 'the header names the bundled ts-proto version');
  t.match(typed, '\nexport interface HelloRequest {\n  name: string;\n}\n', 'the code is formatted');

  // the build's TypeScript resolves its contract types from the installed package, as a project does
  fs.mkdirSync(path.join(demo, 'node_modules'));
  fs.symlinkSync(installedDir, path.join(demo, 'node_modules', pkg.name), 'dir');
  const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  const resolved = ts.resolveModuleName(`${pkg.name}/contract`, path.join(demo, 'generated/api/index.ts'), options, ts.sys).resolvedModule?.resolvedFileName;
  t.equal(resolved && fs.realpathSync(resolved), fs.realpathSync(path.join(installedDir, 'common/contract/index.ts')), 'the contract ships in the package');
  t.match(fs.readFileSync(path.join(demo, 'generated/api/index.ts'), 'utf8'), `from '${pkg.name}/contract'`);

  // the SDK, the package's main entry: by name from the installed copy, with its types
  const sdk = await run(process.execPath, ['--input-type=module', '-e', `const { startMockServer } = await import('${pkg.name}'); console.log(typeof startMockServer)`], { cwd: demo });
  t.equal(sdk.stdout.trim(), 'function', `import { startMockServer } from '${pkg.name}' works where the package is installed`);
  const types = ts.resolveModuleName(pkg.name, path.join(demo, 'use.ts'), options, ts.sys).resolvedModule?.resolvedFileName;
  t.equal(types && fs.realpathSync(types), fs.realpathSync(path.join(installedDir, 'dist/src/sdk/index.d.ts')), 'its types ship in the package');

  // mock tui's ink and react are not installed with the package: one line says how to add them
  const tui = await run('mock', ['tui'], { cwd: demo, env: pathEnv });
  t.equal(tui.code, 1);
  t.match(tui.stderr, /^mock tui needs the packages ink and react \(not installed: ink, react\): npm install -g ink@5 react@18/, tui.stderr);
  // so is mock dev-setup's client generator (and the TypeScript 5 it prints with)
  const devSetup = await run('mock', ['dev-setup', 'react'], { cwd: demo, env: pathEnv });
  t.equal(devSetup.code, 1, devSetup.stderr);
  t.match(devSetup.stderr, /^mock dev-setup needs the package @hey-api\/openapi-ts \(not installed\) and TypeScript 5: npm install -D @hey-api\/openapi-ts@0\.95\.0 typescript@5/, devSetup.stderr);

  // the installed mock finds its dashboard bundle: the admin page and its script are served
  const serve = spawn(path.join(binDir, 'mock'), ['serve', '--http-port', '0', '--host', '127.0.0.1', '--admin', '--admin-port', '0'], { cwd: demo, env: { ...shell, ...pathEnv } });
  t.teardown(() => serve.kill('SIGKILL'));
  const adminUrl = await new Promise((resolve, reject) => {
    let out = '';
    serve.stdout.on('data', (d) => {
      out += d;
      const found = /admin on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    serve.on('close', (code) => reject(new Error(`mock serve exited ${code}: ${out}`)));
  });
  const page = await (await fetch(`${adminUrl}/`)).text();
  const script = /<script[^>]+src="\.\/(assets\/[^"]+\.js)"/.exec(page)?.[1];
  t.ok(script, 'the admin page is the dashboard, its script a bundle file');
  t.equal((await fetch(`${adminUrl}/${script}`)).status, 200, 'served from the installed package');
});
