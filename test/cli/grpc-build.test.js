// mock build (and what reads the same inputs: --check, config validate, serve's staleness) with
// .proto files, through the real CLI: the corpus protos in nested folders with imports, a broken
// file beside good ones, excluded services, and every way the settings can be wrong.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { corpus, root, runCli, runMock, sideBySide, startCommand, tmpdir } from '../helpers/cli.js';
import { plainNode } from '../helpers/plain-node.js';

const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

const runAll = (runs) => sideBySide(runs.map(([args, options]) => () => runCli(args, options)), 3);

/** A project with the corpus protos under proto/ (examples/*.proto and grpc/**), plus `extra` files. */
function project(t, extra = {}) {
  const cwd = t.testdir(extra);
  for (const folder of ['examples', 'grpc']) cpSync(path.join(corpus, 'proto', folder), path.join(cwd, 'proto', folder), { recursive: true });
  return cwd;
}

/** A project with one small corpus proto (proto/examples/route_guide.proto, no imports), plus `extra` files: for checks of errors and settings that need no whole corpus. */
function smallProject(t, extra = {}) {
  const cwd = t.testdir(extra);
  cpSync(path.join(corpus, 'proto', 'examples', 'route_guide.proto'), path.join(cwd, 'proto', 'examples', 'route_guide.proto'));
  return cwd;
}

/** The typed message code (ts-proto) of the corpus protos: the user's files and the well-known types they import. */
const TYPED_CODE = [
  'examples/hellostreamingworld.ts',
  'examples/helloworld.ts',
  'examples/route_guide.ts',
  'google/protobuf/any.ts',
  'google/protobuf/duration.ts',
  'google/protobuf/timestamp.ts',
  'google/protobuf/wrappers.ts',
  'grpc/channelz/v1/channelz.ts',
  'grpc/health/v1/health.ts',
  'grpc/reflection/v1/reflection.ts',
  'grpc/testing/empty.ts',
  'grpc/testing/messages.ts',
  'grpc/testing/test.ts',
].map((f) => `grpc/${f}`);

const grpcJson = (cwd, name = 'proto') => JSON.parse(readFileSync(path.join(cwd, 'generated', name, 'grpc.json'), 'utf8'));

// One build of the corpus protos for the whole file (a dozen builds, each with ts-proto, were most of
// its time): `base` is built once, beside a second build into another folder (the typed code built
// elsewhere), side by side. The checks that only read a build read base's, which no test changes;
// the tests that change a build or its protos get a copy of the built project. The type check of
// its typed code (tsc, a few seconds) starts at once too, on a copy, and runs beside the tests
// before the one that reads its result.
const fixtures = t.testdir({ base: {}, tsc: { 'package.json': '{ "type": "module" }\n' } });
const base = path.join(fixtures, 'base');
for (const folder of ['examples', 'grpc']) cpSync(path.join(corpus, 'proto', folder), path.join(base, 'proto', folder), { recursive: true });
const [baseBuild, elsewhereBuild] = await runAll([
  [['build'], { cwd: base }],
  [['build', '--out', 'other/place', '--name', 'again'], { cwd: base }],
]);
// copies of base as built (its protos and generated/, not the build elsewhere)
const staleCopy = path.join(fixtures, 'stale');
const typedCopy = path.join(fixtures, 'typed');
const goneCopy = path.join(fixtures, 'gone');
const plantedCopy = path.join(fixtures, 'planted');
const linkCopy = path.join(fixtures, 'link');
for (const copy of [staleCopy, typedCopy, goneCopy, plantedCopy, linkCopy]) for (const folder of ['proto', 'generated']) cpSync(path.join(base, folder), path.join(copy, folder), { recursive: true });

/** tsc over a copy of base's typed code in an ES module project: {code, out}, awaited by the typed code's test. */
const tscProject = path.join(fixtures, 'tsc');
cpSync(path.join(base, 'generated', 'proto', 'grpc'), path.join(tscProject, 'generated', 'proto', 'grpc'), { recursive: true });
writeFileSync(
  path.join(tscProject, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, include: ['generated/proto/grpc/**/*.ts'] }),
);
const typeChecked = new Promise((resolve) => {
  const env = { ...process.env };
  const child = spawn(...plainNode([path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--pretty', 'false'], env), { cwd: tscProject, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
  child.on('close', (code) => resolve({ code, out }));
});

t.test('the corpus protos alone build grpc.json, named after the folder; deterministic; --check sees a change', async (t) => {
  const cwd = base;
  const built = baseBuild;
  t.equal(built.code, 0, built.stderr);
  t.equal(built.stderr, '');
  t.equal(built.stdout, `mock: built proto in generated/proto (${TYPED_CODE.length + 2} written, 0 unchanged)\n${['grpc.json', ...TYPED_CODE, 'manifest.json'].map((f) => `  wrote generated/proto/${f}\n`).join('')}`);
  const out = grpcJson(cwd);
  const names = out.services.map((s) => s.name);
  t.same(names, [...names].sort(), 'services sorted');
  t.ok(names.includes('routeguide.RouteGuide') && names.includes('grpc.testing.TestService') && names.includes('helloworld.Greeter'));
  const route = out.services.find((s) => s.name === 'routeguide.RouteGuide');
  t.same(
    route.methods.map((m) => [m.name, m.clientStreaming, m.serverStreaming]),
    [
      ['GetFeature', false, false],
      ['ListFeatures', false, true],
      ['RecordRoute', true, false],
      ['RouteChat', true, true],
    ],
    'all four modes',
  );
  t.equal(route.methods[0].requestType, 'routeguide.Point');
  t.same(out.problems, []);
  // imports rooted at the proto folder, well-known types and the rich-error files included
  for (const file of ['grpc/testing/test.proto', 'grpc/testing/empty.proto', 'grpc/channelz/v1/channelz.proto', 'google/protobuf/timestamp.proto', 'google/protobuf/duration.proto', 'google/rpc/status.proto']) {
    t.type(out.files[file], 'string', file);
  }
  const manifest = JSON.parse(readFileSync(path.join(cwd, 'generated', 'proto', 'manifest.json'), 'utf8'));
  t.same(Object.keys(manifest.files), ['grpc.json', ...TYPED_CODE], 'no HTTP mock without a description');
  t.ok(Object.keys(manifest.input_files).includes('../../proto/examples/route_guide.proto'), 'the protos are hashed');

  // a changed proto in a copy of base as built, checked beside the second build and check of base
  appendFileSync(path.join(staleCopy, 'proto', 'examples', 'helloworld.proto'), '\nmessage Extra { string id = 1; }\n');
  const [again, fresh, stale] = await runAll([
    [['build', '--json'], { cwd }],
    [['build', '--check'], { cwd }],
    [['build', '--check'], { cwd: staleCopy }],
  ]);
  t.same(JSON.parse(again.stdout).written, [], 'a second build writes nothing');
  t.same(fresh, { code: 0, stdout: 'mock: generated/proto is up to date\n', stderr: '' });

  t.equal(stale.code, 1);
  t.equal(stale.stderr, 'generated/proto/grpc.json is stale: run mock build\ngenerated/proto/grpc/examples/helloworld.ts is stale: run mock build\ngenerated/proto/manifest.json is stale: run mock build\n');
});

t.test('the dependency list of a file names its imports (the reflection bug of a missing timestamp.proto)', async (t) => {
  const cwd = base;
  t.equal(baseBuild.code, 0);
  const { default: descriptor } = await import('protobufjs/ext/descriptor/index.js');
  const decode = (file) => descriptor.FileDescriptorProto.decode(Buffer.from(grpcJson(cwd).files[file], 'base64'));
  t.same(decode('grpc/channelz/v1/channelz.proto').dependency, ['google/protobuf/any.proto', 'google/protobuf/duration.proto', 'google/protobuf/timestamp.proto', 'google/protobuf/wrappers.proto']);
  t.same(decode('grpc/testing/test.proto').dependency, ['grpc/testing/empty.proto', 'grpc/testing/messages.proto']);
  const channelz = decode('grpc/channelz/v1/channelz.proto');
  const field = channelz.messageType.find((m) => m.name === 'ChannelData').field.find((f) => f.name === 'last_call_started_timestamp');
  t.equal(field.typeName, '.google.protobuf.Timestamp', 'full type names');
});

t.test('a broken .proto beside good ones: one warning with file:line:column, the others built; imports of it left out too', async (t) => {
  const cwd = smallProject(t, {
    proto: {
      'broken.proto': 'syntax = "proto3";\npackage broken;\nmessage X {\n  string a = 1\n  int32 b = 2;\n}\n',
      nested: {
        'uses_broken.proto': 'syntax = "proto3";\npackage nested;\nimport "broken.proto";\nmessage Y { broken.X x = 1; }\nservice S { rpc Do(Y) returns (Y); }\n',
        'unknown.proto': 'syntax = "proto3";\npackage unk;\n\nmessage Z {\n  Missing m = 1;\n}\n',
      },
    },
  });
  const built = await runCli(['build'], { cwd });
  t.equal(built.code, 0, 'a warning, not a failure');
  t.equal(
    built.stderr,
    [
      "mock: warning: proto/broken.proto:5:3: illegal token 'int32', ';' expected (fix the file; the other files still serve)",
      'mock: warning: proto/nested/uses_broken.proto:3:8: imports "broken.proto", which does not build (fix the file; the other files still serve)',
      'mock: warning: proto/nested/unknown.proto:5:3: unknown type Missing (in message unk.Z); define or import it (fix the file; the other files still serve)',
      '',
    ].join('\n'),
  );
  const out = grpcJson(cwd);
  t.same(
    out.problems.map((p) => [p.file, p.line, p.column]),
    [
      ['broken.proto', 5, 3],
      ['nested/unknown.proto', 5, 3],
      ['nested/uses_broken.proto', 3, 8],
    ],
  );
  t.ok(out.services.some((s) => s.name === 'routeguide.RouteGuide'), 'the good files serve');
  t.notOk(out.services.some((s) => s.name === 'nested.S'));
  t.notOk('broken.proto' in out.files);
});

t.test('excluded_services, MOCK_GRPC_PROTO_DIR, config validate', async (t) => {
  const cwd = project(t, { 'mock.yaml': 'grpc:\n  excluded_services: [grpc.testing.UnimplementedService, nope.Missing]\n' });
  cpSync(path.join(cwd, 'proto'), path.join(cwd, 'protos'), { recursive: true });
  const [built, validated, fromEnv] = await runAll([
    [['build'], { cwd }],
    [['config', 'validate'], { cwd }],
    [['build', '--name', 'env'], { cwd, env: { MOCK_GRPC_PROTO_DIR: 'protos/examples' } }],
  ]);
  t.equal(built.code, 0, built.stderr);
  t.equal(built.stderr, 'mock: warning: grpc.excluded_services: no service nope.Missing in the .proto files (services are named package.Service)\n');
  t.notOk(grpcJson(cwd).services.some((s) => s.name === 'grpc.testing.UnimplementedService'));
  t.equal(validated.code, 0, validated.stderr);
  t.match(validated.stdout, /\n {2}gRPC: proto \(9 \.proto files; 12 services, \d+ methods\)\n/);
  t.equal(fromEnv.code, 0, fromEnv.stderr);
  t.same(grpcJson(cwd, 'env').services.map((s) => s.name), ['hellostreamingworld.MultiGreeter', 'helloworld.Greeter', 'routeguide.RouteGuide']);
});

t.test('no proto/ folder starts nothing; an explicit folder that finds none is one line', async (t) => {
  const dir = t.testdir({ configured: { 'empty-dir': {}, 'mock.yaml': 'grpc:\n  proto_dir: missing\n' }, bare: {} });
  const cwd = path.join(dir, 'configured');
  const bare = path.join(dir, 'bare');
  const [nothing, flag, file, port, empty, badValue] = await runAll([
    [['build'], { cwd: bare }],
    [['build', '--proto-dir', 'nowhere'], { cwd: bare }],
    [['build'], { cwd }],
    [['build'], { cwd: bare, env: { MOCK_GRPC_PORT: '50099' } }],
    [['build', '--proto-dir', 'empty-dir'], { cwd }],
    [['build'], { cwd: bare, env: { MOCK_GRPC_PORT: 'x' } }],
  ]);
  t.equal(nothing.code, 1);
  t.match(nothing.stderr, /^no spec given: .*--proto-dir <dir> to mock gRPC/);
  t.equal(flag.stderr, 'gRPC proto folder not found: nowhere (checked --proto-dir); create it with your .proto files, or name the folder holding them with --proto-dir or grpc.proto_dir\n');
  t.equal(file.stderr, 'gRPC proto folder not found: missing (checked grpc.proto_dir in mock.yaml); create it with your .proto files, or name the folder holding them with --proto-dir or grpc.proto_dir\n');
  t.match(port.stderr, /^no spec given: /, 'MOCK_GRPC_PORT says where a gRPC server listens, not whether: nothing to build (--grpc-port: servers-wanted.test.js)');
  t.equal(empty.stderr, 'gRPC proto folder empty-dir holds no .proto file (checked --proto-dir); add your .proto files (subfolders are read too)\n');
  t.equal(badValue.code, 1);
  t.match(badValue.stderr, /MOCK_GRPC_PORT/);
  for (const result of [flag, file, port, empty]) t.equal(result.code, 1);
});

t.test('bad grpc settings are refused, each naming the key', async (t) => {
  const cwd = smallProject(t, {
    'mock.yaml': [
      'grpc:',
      '  max_message_size: 0',
      '  stream: { count: 20000 }',
      '  excluded_services: ["not a name"]',
      '  methods:',
      '    - method: routeguide.RouteGuide',
      '    - method: helloworld.Greeter/SayHello',
      '      error: { code: NOPE }',
      '',
    ].join('\n'),
  });
  const result = await runCli(['config', 'validate'], { cwd });
  t.equal(result.code, 1);
  for (const key of ['grpc.max_message_size', 'grpc.stream.count', 'grpc.excluded_services[0]', 'grpc.methods[0].method', 'grpc.methods[1].error.code']) t.match(result.stderr, key, key);
});

t.test('serve with .proto files alone: the build happens, its problems are said again on a fresh start, the gRPC port clashes are refused', async (t) => {
  const cwd = smallProject(t, {
    proto: { 'broken.proto': 'syntax = "proto3";\nmessage {\n' },
    // the same project with a mock.yaml, for the second clash (side by side with the first)
    withConfig: { 'mock.yaml': 'grpc:\n  http_bridge: { enabled: true, port: 45679 }\nmetrics: { enabled: true, port: 45679 }\n' },
  });
  const withConfig = path.join(cwd, 'withConfig');
  cpSync(path.join(cwd, 'proto'), path.join(withConfig, 'proto'), { recursive: true });
  const [clash, bridge] = await runAll([
    [['serve', '--grpc-port', '45678', '--admin', '--admin-port', '45678'], { cwd }],
    [['serve'], { cwd: withConfig }],
  ]);
  t.equal(clash.code, 1);
  t.match(clash.stderr, /^--grpc-port and --admin-port are both 45678: the gRPC mock and the admin server cannot share a port/);
  t.match(bridge.stderr, /grpc\.http_bridge\.port in mock\.yaml and metrics\.port in mock\.yaml are both 45679/);
});

t.test('mock serve with a .proto that does not parse: stops with file:line:column when no service is left, warns and serves the rest otherwise', async (t) => {
  const broken = 'syntax = "proto3";\npackage broken;\nmessage X {\n  string a = 1\n  int32 b = 2;\n}\nservice B { rpc Do(X) returns (X); }\n';
  const beside = smallProject(t, { proto: { 'broken.proto': broken } });
  // t.testdir() is made once per test: the second project is a fresh folder
  const alone = tmpdir();
  mkdirSync(path.join(alone, 'proto'));
  writeFileSync(path.join(alone, 'proto', 'broken.proto'), broken);
  const [stopped, serving] = await Promise.all([
    // a server that starts (with 0 services) does not end: that is the failure this checks
    runMock(['serve', '--grpc-port', '0'], { cwd: alone, timeoutMs: 60_000 }),
    startCommand(['serve', '--grpc-port', '0', '--host', '127.0.0.1'], /gRPC on (\S+)/, { cwd: beside }),
  ]);
  t.teardown(() => serving.stop());
  t.equal(stopped.code, 1, 'a non-zero exit');
  t.equal(stopped.stderr, "proto/broken.proto:5:3: illegal token 'int32', ';' expected; no gRPC service is left to serve: fix the file\n");
  t.notMatch(stopped.stdout, /gRPC on/, 'no server with 0 services');
  t.match(serving.stdout + serving.stderr, "proto/broken.proto:5:3: illegal token 'int32', ';' expected (fix the file; the other files still serve)", 'the warning stays');
  t.match(serving.url, /^127\.0\.0\.1:\d+$/, 'the other file serves');
});

t.test('typed message code: ts-proto for grpc-js, byte-identical in another folder, type-checked, --check sees a stale or missing file', async (t) => {
  // base's build and its build elsewhere (side by side at the start of this file)
  const built = baseBuild;
  const elsewhere = elsewhereBuild;
  t.equal(built.code, 0, built.stderr);
  t.equal(elsewhere.code, 0, elsewhere.stderr);
  const baseDir = path.join(base, 'generated', 'proto');
  for (const file of TYPED_CODE) {
    const text = readFileSync(path.join(baseDir, file), 'utf8');
    t.equal(readFileSync(path.join(base, 'other', 'place', 'again', file), 'utf8'), text, `${file} the same built elsewhere`);
    t.notOk(text.includes(base) || text.includes(root), `${file} names no absolute path`);
  }
  const route = readFileSync(path.join(baseDir, 'grpc/examples/route_guide.ts'), 'utf8');
  t.match(route, /^\/\/ Code generated by protoc-gen-ts_proto\. DO NOT EDIT\.\n\/\/ versions:\n\/\/ {3}protoc-gen-ts_proto {2}v\d+\.\d+\.\d+\n\/\/ {3}protoc {15}unknown\n\/\/ source: examples\/route_guide\.proto\n/, 'a header without a timestamp');
  t.match(route, /from "@bufbuild\/protobuf\/wire";/);
  t.match(route, /from "@grpc\/grpc-js";/);
  t.match(route, /export const RouteGuideClient = makeGenericClientConstructor\(/, 'a grpc-js client');
  t.match(route, /export interface RouteGuideServer extends UntypedServiceImplementation \{/, 'a grpc-js server interface');
  const channelz = readFileSync(path.join(baseDir, 'grpc/grpc/channelz/v1/channelz.ts'), 'utf8');
  t.match(channelz, /import \{ Timestamp \} from "\.\.\/\.\.\/\.\.\/google\/protobuf\/timestamp\.js";/, 'relative imports with .js');
  t.match(channelz, /lastCallStartedTimestamp\?: Date \| undefined;/, 'optional message fields, Timestamp as Date');
  t.match(channelz, /callsStarted: string;/, 'int64 as string');
  const messages = readFileSync(path.join(baseDir, 'grpc/grpc/testing/messages.ts'), 'utf8');
  t.match(messages, /payload\?: Payload \| undefined;/);

  // every file type-checks with the packages it imports, as an ES module project would compile it,
  // but one: channelz's rpc GetChannel becomes a client method getChannel, which clashes with
  // @grpc/grpc-js Client#getChannel (ts-proto camel-cases grpc-js method names, always).
  // tsc reads a copy of the typed code (in an ES module project of its own, under this repository
  // for its node_modules), started with this file (see typeChecked); the checks of a changed build
  // below run on another copy of base's build
  const tsc = await typeChecked;
  const errors = tsc.out.split('\n').filter((line) => /error TS\d+/.test(line));
  t.same(
    errors.map((line) => line.replace(/\(\d+,\d+\)/, '')),
    ["generated/proto/grpc/grpc/channelz/v1/channelz.ts: error TS2430: Interface 'ChannelzClient' incorrectly extends interface 'Client'."],
    tsc.out,
  );

  // a copy of base as built
  const cwd = typedCopy;
  const dir = path.join(cwd, 'generated', 'proto');
  t.same(readdirSync(path.join(dir, 'grpc')), readdirSync(path.join(baseDir, 'grpc')), 'the copy of the build');
  writeFileSync(path.join(dir, 'grpc/examples/helloworld.ts'), `${readFileSync(path.join(dir, 'grpc/examples/helloworld.ts'), 'utf8')}// edited\n`);
  rmSync(path.join(dir, 'grpc/google/protobuf/any.ts'));
  // a file gone from the protos (in another copy of base as built, its build beside the check):
  // its code and the folders it leaves empty go too
  rmSync(path.join(goneCopy, 'proto', 'grpc', 'health'), { recursive: true });
  const [stale, gone] = await runAll([
    [['build', '--check'], { cwd }],
    [['build'], { cwd: goneCopy }],
  ]);
  t.equal(stale.code, 1);
  t.equal(stale.stderr, 'generated/proto/grpc/examples/helloworld.ts is stale: run mock build\ngenerated/proto/grpc/google/protobuf/any.ts is stale: run mock build\n');
  const rebuilt = await runCli(['build', '--json'], { cwd });
  t.same(JSON.parse(rebuilt.stdout).written, ['grpc/examples/helloworld.ts', 'grpc/google/protobuf/any.ts']);

  t.equal(gone.code, 0);
  const goneDir = path.join(goneCopy, 'generated', 'proto');
  t.notOk(existsSync(path.join(goneDir, 'grpc/grpc/health')), 'the emptied folders removed');
  t.ok(existsSync(path.join(goneDir, 'grpc/grpc/testing/test.ts')));
});

t.test('an earlier build is replaced only inside the build folder: a planted manifest or link removes nothing outside', async (t) => {
  // the earlier build: a copy of base as built
  const cwd = plantedCopy;
  t.equal(baseBuild.code, 0);
  const outside = path.join(cwd, 'outside');
  mkdirSync(path.join(outside, 'grpc'), { recursive: true });
  writeFileSync(path.join(outside, 'x'), 'keep');
  writeFileSync(path.join(outside, 'x.ts'), 'keep');
  writeFileSync(path.join(outside, 'grpc', 'y.ts'), 'keep');
  const dir = path.join(cwd, 'generated', 'proto');
  const manifestPath = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const planted = ['../../outside/x', '../../outside/x.ts', path.join(outside, 'x'), path.join(outside, 'x.ts'), 'grpc/../../../outside/x.ts', 'grpc/./../../../outside/x.ts', 'grpc//x.ts', 'grpc\\..\\..\\..\\outside\\x.ts', 'grpc/link/y.ts', 'grpc/file/y.ts'];
  for (const name of planted) manifest.files[name] = 'planted';
  writeFileSync(manifestPath, JSON.stringify(manifest));
  symlinkSync(path.join(outside, 'grpc'), path.join(dir, 'grpc', 'link'));
  writeFileSync(path.join(dir, 'grpc', 'file'), 'a file where a folder was');

  // a link planted where the build writes (in another copy of base as built, with a folder outside
  // of its own, built beside the first): refused, not written through
  const linkOutside = path.join(linkCopy, 'outside');
  mkdirSync(path.join(linkOutside, 'grpc'), { recursive: true });
  writeFileSync(path.join(linkOutside, 'grpc', 'y.ts'), 'keep');
  const linkDir = path.join(linkCopy, 'generated', 'proto');
  rmSync(path.join(linkDir, 'grpc', 'examples'), { recursive: true });
  symlinkSync(path.join(linkOutside, 'grpc'), path.join(linkDir, 'grpc', 'examples'));

  const [built, refused] = await runAll([
    [['build'], { cwd }],
    [['build'], { cwd: linkCopy }],
  ]);
  t.equal(built.code, 0, built.stderr);
  t.same(readdirSync(outside).sort(), ['grpc', 'x', 'x.ts']);
  t.equal(readFileSync(path.join(outside, 'grpc', 'y.ts'), 'utf8'), 'keep', 'nothing removed through a link');
  t.equal(readFileSync(path.join(dir, 'grpc', 'file'), 'utf8'), 'a file where a folder was');
  t.same(Object.keys(JSON.parse(readFileSync(manifestPath, 'utf8')).files), ['grpc.json', ...TYPED_CODE], 'the new manifest names the build only');

  t.equal(refused.code, 1);
  t.match(refused.stderr, /generated\/proto\/grpc\/examples is a link, not a folder: a build replaces only an earlier build/);
  t.same(readdirSync(path.join(linkOutside, 'grpc')), ['y.ts'], 'nothing written through the link');
});
