// mock git-watch in real temporary git repositories: a commit reloads the served mock (a new path
// answers, a removed one 404s) and prints the compare report, while a client hammering the mock
// sees no failed request; a broken description keeps the last good build serving; --once; polling
// a remote (a second, bare repository); one-line errors outside a repository and without git.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { parse, stringify } from 'yaml';
import { corpus, runCli, runMock, startCommand, startMock, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const petstore = readFileSync(path.join(corpus, 'openapi', 'oai-v3.0-petstore.yaml'), 'utf8');

const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A working tree on main with api.yaml (the corpus petstore) committed. */
const repository = (t, files = { 'api.yaml': petstore }) => initRepository(t.testdir(files));

/** `dir` as a working tree on main with its files committed. */
function initRepository(dir) {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'user.name', 'test');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

/** Without GET /pets/{petId} (breaking), with GET /owners (safe). */
const changed = () => {
  const doc = parse(petstore);
  delete doc.paths['/pets/{petId}'];
  doc.paths['/owners'] = {
    get: { operationId: 'listOwners', responses: { 200: { description: 'owners', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } } },
  };
  return stringify(doc);
};

function commit(dir, content, message = 'change', file = 'api.yaml') {
  writeFileSync(path.join(dir, file), content);
  git(dir, 'commit', '-q', '-a', '-m', message);
}

// the petstore built once for the file, as api.yaml: a working tree that serves it gets a copy of
// the build (untracked, as a build folder is), which its first start finds fresh and serves as it
// is instead of building the same description again; what a commit changes is built as before
const template = tmpdir();
writeFileSync(path.join(template, 'api.yaml'), petstore);
const templateBuild = runMock(['build', '--spec', 'api.yaml'], { cwd: template });
t.teardown(() => rmSync(template, { recursive: true, force: true }));

async function withBuild(dir) {
  const built = await templateBuild;
  if (built.code !== 0) throw new Error(`mock build of the petstore exited with ${built.code}\n${built.stderr}`);
  cpSync(path.join(template, 'generated'), path.join(dir, 'generated'), { recursive: true });
}

const watch = async (dir, ...args) => {
  await withBuild(dir);
  return startCommand(['git-watch', '--spec', 'api.yaml', '--http-port', '0', '--host', '127.0.0.1', ...args], /serving on (http:\/\/[^/\s]+)[^\n]*\n[^\n]*git-watch: watching/, { cwd: dir });
};

const statusOf = async (url) => (await fetch(url)).status;

t.test('a commit reloads the mock and prints the report; a client hammering it sees no failed request', async (t) => {
  const dir = repository(t);
  const server = await watch(dir);
  t.teardown(() => server.stop());
  t.equal(await statusOf(`${server.url}/v1/pets/1`), 200);
  t.equal(await statusOf(`${server.url}/v1/owners`), 404);

  let done = false;
  let answered = 0;
  const failures = [];
  const hammer = async () => {
    while (!done) {
      try {
        const response = await fetch(`${server.url}/v1/pets`);
        await response.arrayBuffer();
        if (response.status === 200) answered++;
        else failures.push(response.status);
      } catch (e) {
        failures.push(e.cause?.code ?? e.message);
      }
    }
  };
  const clients = [hammer(), hammer(), hammer(), hammer()];
  await until(() => answered > 20, 30_000, 'the hammering clients to get answers');
  commit(dir, changed());
  await until(() => server.stdout.includes('reloaded'), 60_000, 'the reload');
  const before = answered;
  await until(() => answered > before + 20, 30_000, 'answers after the reload');
  done = true;
  await Promise.all(clients);
  t.same(failures, [], 'no request failed during the reload');

  t.equal(await statusOf(`${server.url}/v1/owners`), 200, 'the new path answers');
  t.equal(await statusOf(`${server.url}/v1/pets/1`), 404, 'the removed path is gone');
  const head = git(dir, 'rev-parse', '--short=7', 'HEAD').trim();
  t.match(server.stdout, new RegExp(`[0-9a-f]{7}:api\\.yaml → ${head}:api\\.yaml: 2 changes: 1 breaking, 0 possibly breaking, 1 safe`));
  t.match(server.stdout, /error +path-removed +\/pets\/\{petId\}/);
  t.match(server.stdout, `reloaded: the HTTP mock serves ${head}`);
});

t.test('a commit with a broken description keeps the last good build serving and says why in one line', async (t) => {
  const dir = repository(t);
  const server = await watch(dir);
  t.teardown(() => server.stop());
  commit(dir, 'openapi: [broken\n', 'broken');
  const head = git(dir, 'rev-parse', '--short=7', 'HEAD').trim();
  const line = await until(() => server.stderr.split('\n').find((l) => l.includes('last good build')), 60_000, 'the error line');
  t.match(line, new RegExp(`^git-watch: ${head}:api\\.yaml:\\d+:\\d+: invalid YAML/JSON: .* \\(the last good build keeps serving\\)$`));
  t.equal(await statusOf(`${server.url}/v1/pets/1`), 200, 'the last good build serves');
  t.notMatch(server.stdout, 'reloaded');

  // the next good commit is compared with what serves, not with the broken one
  commit(dir, changed(), 'fixed');
  await until(() => server.stdout.includes('reloaded'), 60_000, 'the reload');
  t.equal(await statusOf(`${server.url}/v1/pets/1`), 404);
  t.match(server.stdout, /error +path-removed +\/pets\/\{petId\}/);
});

t.test('a $ref target outside the description folder is compared and followed with it', async (t) => {
  const doc = parse(petstore);
  const pet = doc.components.schemas.Pet;
  doc.components.schemas.Pet = { $ref: '../schemas/pet.yaml' };
  const dir = repository(t, { specs: { 'api.yaml': stringify(doc) }, schemas: { 'pet.yaml': stringify(pet) } });
  const server = await startCommand(['git-watch', '--spec', 'specs/api.yaml', '--http-port', '0', '--host', '127.0.0.1'], /serving on (http:\/\/[^/\s]+)[^\n]*\n[^\n]*git-watch: watching/, {
    cwd: dir,
  });
  t.teardown(() => server.stop());
  commit(dir, stringify({ ...pet, properties: { ...pet.properties, id: { type: 'string' } } }), 'id as text', 'schemas/pet.yaml');
  await until(() => server.stdout.includes('reloaded') || server.stderr.includes('git-watch:'), 60_000, 'the reload');
  t.equal(server.stderr.match(/git-watch:.*/)?.[0], undefined, 'no problem');
  t.match(server.stdout, /:specs\/api\.yaml → [0-9a-f]{7}:specs\/api\.yaml: \d+ changes?: [1-9]\d* breaking/);
  t.match(server.stdout, /error +\S*type\S* +.*id/);
  const answer = await (await fetch(`${server.url}/v1/pets/1`)).json();
  t.type(answer.id, 'string', 'the mock serves the new type');
});

t.test('a commit that changes no served description reloads nothing', async (t) => {
  const dir = repository(t, { 'api.yaml': petstore, other: { 'notes.yaml': 'a: 1\n' } });
  const server = await watch(dir);
  t.teardown(() => server.stop());
  commit(dir, 'a: 2\n', 'notes', 'other/notes.yaml');
  const head = git(dir, 'rev-parse', '--short=7', 'HEAD').trim();
  await until(() => server.stdout.includes(`HEAD is at ${head}`), 60_000, 'HEAD to be seen');
  commit(dir, changed());
  await until(() => server.stdout.includes('reloaded'), 60_000, 'the reload');
  t.equal(server.stdout.match(/reloaded/g).length, 1, 'only the description change reloads');
});

t.test('--uncommitted reacts to a saved edit', async (t) => {
  const dir = repository(t);
  const server = await watch(dir, '--uncommitted');
  t.teardown(() => server.stop());
  writeFileSync(path.join(dir, 'api.yaml'), changed());
  await until(() => server.stdout.includes('reloaded: the HTTP mock serves working tree'), 60_000, 'the reload');
  t.match(server.stdout, 'api.yaml (working tree): 2 changes: 1 breaking');
  t.equal(await statusOf(`${server.url}/v1/owners`), 200);

  // what the reload writes into generated/ (inside the watched folder here) is no edit
  const doc = parse(changed());
  doc.paths['/vets'] = { get: { responses: { 200: { description: 'vets' } } } };
  writeFileSync(path.join(dir, 'api.yaml'), stringify(doc));
  await until(() => server.stdout.match(/reloaded/g).length === 2, 60_000, 'the second reload');
  t.equal(await statusOf(`${server.url}/v1/vets`), 200);
  t.equal(server.stdout.match(/ → api\.yaml \(working tree\)/g).length, 2, 'one report per edit');
});

t.test('--once compares --since with HEAD, prints the report and exits by --fail-on', async (t) => {
  const dir = repository(t);
  commit(dir, changed());
  const plain = await runCli(['git-watch', '--once', '--spec', 'api.yaml'], { cwd: dir });
  t.equal(plain.code, 0, plain.stderr);
  t.match(plain.stdout, /error +path-removed +\/pets\/\{petId\}/);
  t.match(plain.stdout, /info +path-added +\/owners/);

  const gated = await runCli(['git-watch', '--once', '--spec', 'api.yaml', '--fail-on', 'error', '--format', 'json'], { cwd: dir });
  t.equal(gated.code, 1, gated.stderr);
  const report = JSON.parse(gated.stdout);
  t.same(report.summary, { error: 1, warning: 0, info: 1 });
  t.match(gated.stderr, 'a change reaches --fail-on error');

  const same = await runCli(['git-watch', '--once', '--spec', 'api.yaml', '--since', 'HEAD', '--fail-on', 'error'], { cwd: dir });
  t.equal(same.code, 0, same.stderr);
  t.match(same.stdout, /^no served description changed from [0-9a-f]{7} to [0-9a-f]{7}\n$/);

  const unknown = await runCli(['git-watch', '--once', '--spec', 'api.yaml', '--since', 'no-such-branch'], { cwd: dir });
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /^--since no-such-branch: no such commit in .*\n$/);
});

t.test('--once reports GraphQL and .proto changes with their own checks', async (t) => {
  const swapi = readFileSync(path.join(corpus, 'graphql', 'swapi.graphql'), 'utf8');
  const helloworld = readFileSync(path.join(corpus, 'proto', 'examples', 'helloworld.proto'), 'utf8');
  const dir = repository(t, { schema: { 'swapi.graphql': swapi }, proto: { 'helloworld.proto': helloworld } });
  writeFileSync(path.join(dir, 'schema', 'swapi.graphql'), swapi.replace(/^ {2}allPlanets\(/m, '  somePlanets('));
  writeFileSync(path.join(dir, 'proto', 'helloworld.proto'), helloworld.replace('string name = 1;', 'int32 name = 1;'));
  git(dir, 'commit', '-q', '-a', '-m', 'change');
  const result = await runCli(['git-watch', '--once', '--graphql-schema', 'schema/swapi.graphql', '--proto-dir', 'proto', '--fail-on', 'error'], { cwd: dir });
  t.equal(result.code, 1, result.stderr);
  t.match(result.stdout, /:schema\/swapi\.graphql: \d+ changes: 1 breaking/);
  t.match(result.stdout, /error +field-removed +Root\.allPlanets/);
  t.match(result.stdout, /:proto → [0-9a-f]{7}:proto: 1 change: 1 breaking/);
  t.match(result.stdout, /error +field-type-changed +helloworld\.HelloRequest\.name/);
});

t.test('remote polling: a push to the remote is fetched, fast-forwarded and served', async (t) => {
  const root = t.testdir({ upstream: { 'api.yaml': petstore } });
  const origin = path.join(root, 'origin.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  const upstream = initRepository(path.join(root, 'upstream'));
  git(upstream, 'remote', 'add', 'origin', origin);
  git(upstream, 'push', '-q', 'origin', 'main');
  git(root, 'clone', '-q', origin, 'work');
  const work = path.join(root, 'work');

  // without --fast-forward: reported, not applied
  commit(upstream, changed());
  git(upstream, 'push', '-q', 'origin', 'main');
  const once = await runCli(['git-watch', '--once', '--spec', 'api.yaml', '--remote', 'origin', '--branch', 'main'], { cwd: work });
  t.equal(once.code, 0, once.stderr);
  t.match(once.stdout, /origin\/main moved [0-9a-f]{7} → [0-9a-f]{7}/);
  t.match(once.stdout, /error +path-removed +\/pets\/\{petId\}/);
  t.match(once.stdout, 'origin/main: not applied to the working tree (pass --fast-forward to follow it, or git pull)');
  t.equal(readFileSync(path.join(work, 'api.yaml'), 'utf8'), petstore, 'the working tree is left as it was');
  const again = await runCli(['git-watch', '--once', '--spec', 'api.yaml', '--remote', 'origin', '--branch', 'main'], { cwd: work });
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, /^origin\/main is still at [0-9a-f]{7}\n$/, 'the tracking ref remembers the last fetch');

  const server = await watch(work, '--remote', 'origin', '--branch', 'main', '--interval', '1s', '--fast-forward');
  t.teardown(() => server.stop());
  const doc = parse(changed());
  doc.paths['/vets'] = { get: { responses: { 200: { description: 'vets' } } } };
  commit(upstream, stringify(doc));
  git(upstream, 'push', '-q', 'origin', 'main');
  // the first fetch finds both pushes: the working tree moves to the newest, and the mock serves it
  await until(() => server.stdout.includes('reloaded'), 60_000, 'the reload');
  t.equal(await statusOf(`${server.url}/v1/vets`), 200);
  t.equal(await statusOf(`${server.url}/v1/pets/1`), 404);
  t.equal(git(work, 'rev-parse', 'HEAD'), git(upstream, 'rev-parse', 'HEAD'), 'the working tree was fast-forwarded');
});

t.test('--fast-forward never overwrites local changes', async (t) => {
  const root = t.testdir({ upstream: { 'api.yaml': petstore } });
  const origin = path.join(root, 'origin.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  const upstream = initRepository(path.join(root, 'upstream'));
  git(upstream, 'push', '-q', origin, 'main');
  git(root, 'clone', '-q', origin, 'work');
  const work = path.join(root, 'work');
  const local = `${petstore}# a local edit\n`;
  writeFileSync(path.join(work, 'api.yaml'), local);
  commit(upstream, changed());
  git(upstream, 'push', '-q', origin, 'main');

  const result = await runCli(['git-watch', '--once', '--spec', 'api.yaml', '--remote', 'origin', '--branch', 'main', '--fast-forward'], { cwd: work });
  t.equal(result.code, 2);
  t.match(result.stderr, /^git-watch: not fast-forwarded: git merge failed: .*\n$/);
  t.match(result.stdout, /error +path-removed +\/pets\/\{petId\}/, 'what the remote changed is still reported');
  t.equal(readFileSync(path.join(work, 'api.yaml'), 'utf8'), local, 'the local edit is kept');
});

t.test('a failed fetch is one line and watching goes on', async (t) => {
  const dir = repository(t);
  git(dir, 'remote', 'add', 'origin', path.join(dir, 'no-such-remote.git'));
  const server = await watch(dir, '--remote', 'origin', '--branch', 'main', '--interval', '1s');
  t.teardown(() => server.stop());
  const line = await until(() => server.stderr.split('\n').find((l) => l.includes('git fetch failed')), 60_000, 'the fetch error');
  t.match(line, /^git-watch: git fetch failed: .*\(the mock keeps serving; next try in 1 s\)$/);
  commit(dir, changed());
  await until(() => server.stdout.includes('reloaded'), 60_000, 'the reload after a failed fetch');
  t.equal(await statusOf(`${server.url}/v1/owners`), 200);
});

t.test('--admin-url reloads a mock serve --admin running on the same working tree', async (t) => {
  const dir = repository(t);
  await withBuild(dir);
  const server = await startMock(['--spec', 'api.yaml', '--admin', '--admin-port', '0'], { cwd: dir });
  t.teardown(() => server.stop());
  const watcher = await startCommand(['git-watch', '--spec', 'api.yaml', '--admin-url', server.adminUrl], /git-watch: watching .*; reloading the mock serve at (\S+)/, { cwd: dir });
  t.teardown(() => watcher.stop());
  t.equal(watcher.url, server.adminUrl);
  t.notMatch(watcher.stdout, 'serving on', 'git-watch serves nothing itself');
  commit(dir, changed());
  await until(() => watcher.stdout.includes('reloaded'), 60_000, 'the reload');
  t.match(watcher.stdout, /error +path-removed +\/pets\/\{petId\}/);
  t.equal(await statusOf(`${server.url}/v1/owners`), 200, 'the running mock serve serves the commit');

  const unreachable = await runCli(['git-watch', '--spec', 'api.yaml', '--admin-url', 'http://127.0.0.1:9'], { cwd: dir });
  t.not(unreachable.code, 0);
  t.match(unreachable.stderr, /^cannot reach the admin API at http:\/\/127\.0\.0\.1:9 .*\n$/);
});

t.test('one-line errors: not a git working tree, an unknown remote, git not on PATH', async (t) => {
  // outside the repository this test runs in
  const dir = mkdtempSync(path.join(os.tmpdir(), 'git-watch-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'api.yaml'), petstore);
  const outside = await runCli(['git-watch', '--once', '--spec', 'api.yaml'], { cwd: dir });
  t.equal(outside.code, 2);
  t.match(outside.stderr, /^\S+ is not in a git working tree: run mock git-watch in a clone \(or git init and commit the descriptions first\)\n$/);
  t.equal(outside.stderr.trim().split('\n').length, 1);

  const repo = repository(t);
  const noRemote = await runCli(['git-watch', '--once', '--spec', 'api.yaml', '--remote', 'upstream', '--branch', 'main'], { cwd: repo });
  t.equal(noRemote.code, 2);
  t.match(noRemote.stderr, /^--remote upstream: no such remote in \S+ \(none is configured; add one with git remote add upstream <url>\)\n$/);

  const noGit = await runCli(['git-watch', '--once', '--spec', 'api.yaml'], { cwd: repo, env: { PATH: t.testdir({}) } });
  t.equal(noGit.code, 2);
  t.equal(noGit.stderr, 'git is not installed or not on PATH: install git (mock git-watch runs it)\n');
});
