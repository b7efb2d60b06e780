// POST /__mock/files/content and /__mock/files/save: reads and writes confined to the project
// directory (the directory of the config file, else the working directory).
import t from 'tap';
import path from 'node:path';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { root, startMock, tmpdir } from '../helpers/cli.js';
import { readAnswer } from '../helpers/admin.js';

const PETSTORE = path.join(root, 'examples/petstore.yaml');

// base/project: the project (mock.yaml lives here); base/outside: a sibling that must stay untouched.
const base = tmpdir();
const project = path.join(base, 'project');
const outside = path.join(base, 'outside');
mkdirSync(project);
mkdirSync(outside);
const SECRET = 'top secret, outside the project\n';
writeFileSync(path.join(outside, 'secret.txt'), SECRET);
writeFileSync(path.join(outside, 'outside.txt'), 'outside\n');
writeFileSync(path.join(base, 'x'), 'x next to the project\n');
writeFileSync(path.join(project, 'mock.yaml'), `specs:\n  - ${JSON.stringify(PETSTORE)}\nseed: 7\n`);
writeFileSync(path.join(project, 'notes.txt'), 'hello from the project\n');
mkdirSync(path.join(project, 'data'));
mkdirSync(path.join(project, 'folder.yaml'));
writeFileSync(path.join(project, 'data', 'pets.json'), '{"pets": ["Tom", "Rex"]}\n');
writeFileSync(path.join(project, 'ünï cødé.txt'), 'ünï cødé ✓\n');
symlinkSync(path.join(outside, 'secret.txt'), path.join(project, 'link-out.txt'));
symlinkSync(outside, path.join(project, 'linkdir'));
symlinkSync(path.join(project, 'notes.txt'), path.join(project, 'link-in.txt'));
// dangling: their targets outside do not exist (yet)
symlinkSync(path.join(outside, 'missing.txt'), path.join(project, 'dangling-out.txt'));
symlinkSync(path.join(outside, 'missing-dir'), path.join(project, 'dangling-dir'));

/** Every entry under `dir` (not following symlinks) with its content or link target. */
function snapshot(dir) {
  const entries = {};
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      const info = lstatSync(full);
      const key = path.relative(dir, full);
      if (info.isSymbolicLink()) entries[key] = `-> ${readlinkSync(full)}`;
      else if (info.isDirectory()) {
        entries[key + '/'] = 'dir';
        walk(full);
      } else entries[key] = `${info.mtimeMs} ${readFileSync(full, 'utf8')}`;
    }
  };
  walk(dir);
  return entries;
}
/** Everything in `base` except the project itself. */
const outsideState = () => Object.fromEntries(Object.entries(snapshot(base)).filter(([key]) => key !== 'project/' && !key.startsWith('project/')));
const before = outsideState();
const etcBefore = readdirSync('/etc').sort();

// `-c` points into the project while the server runs in the repository: the project directory is
// the config file's directory, not the working directory.
const server = await startMock(['-c', path.join(project, 'mock.yaml'), '--out', tmpdir(), '--admin', '--admin-port', '0'], { cwd: root });
t.teardown(() => server.stop());

async function post(endpoint, body, { raw, base: url = server.adminUrl } = {}) {
  const res = await fetch(`${url}/__mock/${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ?? JSON.stringify(body),
  });
  return readAnswer(res);
}
const read = (file_path, extra = {}) => post('files/content', { file_path, ...extra });
const save = (file_path, content, extra = {}) => post('files/save', { file_path, content, ...extra });

function refused(t, res, pattern, what) {
  t.equal(res.status, 400, `${what}: 400 (${res.text.slice(0, 200)})`);
  t.equal(res.json?.success, false, `${what}: envelope success false`);
  t.equal(res.json?.data, null, `${what}: data null`);
  t.match(res.json?.error, pattern, `${what}: error says why`);
}
const traversal = (t, res, what) => refused(t, res, /^Path traversal detected/, what);

t.test('files/content reads a file of the project', async (t) => {
  const res = await read('notes.txt');
  t.equal(res.status, 200);
  t.same(res.json.success, true);
  t.equal(res.json.data, 'hello from the project\n', 'data is the content as a string');
  t.equal(res.json.error, null);
  t.match(res.json.timestamp, /Z$/);
  const nested = await read('data/pets.json', { file_type: 'json' });
  t.equal(nested.json.data, '{"pets": ["Tom", "Rex"]}\n', 'a JSON file is returned as text, not parsed');
  for (const type of ['yaml', 'json', 'text', 'config', 'spec', 'fixture']) {
    t.equal((await read('mock.yaml', { file_type: type })).status, 200, `file_type ${type} is accepted`);
  }
  t.equal((await read('ünï cødé.txt')).json.data, 'ünï cødé ✓\n', 'UTF-8 names and content');
  t.equal((await read('./notes.txt')).json.data, 'hello from the project\n', './ is fine');
  t.equal((await read('link-in.txt')).json.data, 'hello from the project\n', 'a symlink that stays inside is followed');
  t.equal((await read(path.join(project, 'notes.txt'))).json.data, 'hello from the project\n', 'an absolute path inside the project is allowed');
});

t.test('a missing file is a 404, a directory a 400', async (t) => {
  const missing = await read('no-such-file.txt');
  t.equal(missing.status, 404);
  t.equal(missing.json.success, false);
  t.equal(missing.json.data, null);
  t.match(missing.json.error, /no-such-file\.txt/, 'names the file');
  t.equal((await read('no/such/dir/file.txt')).status, 404);
  t.equal((await read('README.md')).status, 404, "the working directory's files are not the project's");
  refused(t, await read('folder.yaml'), /not a regular file/, 'a directory');
  refused(t, await read('data'), /no file extension/, 'a directory without an extension is no editable kind either');
  refused(t, await read('.'), /no file extension/, 'the project directory itself');
  writeFileSync(path.join(project, 'huge.txt'), '');
  truncateSync(path.join(project, 'huge.txt'), 11 * 1024 * 1024);
  refused(t, await read('huge.txt'), /bytes/, 'a file over 10 MiB');
});

t.test('files/save writes, creates directories, overwrites atomically', async (t) => {
  const res = await save('saved.txt', 'first version\n');
  t.equal(res.status, 200, res.text);
  t.equal(res.json.success, true);
  t.type(res.json.data.message, 'string', 'data {message}');
  t.equal(readFileSync(path.join(project, 'saved.txt'), 'utf8'), 'first version\n', 'the file on disk holds the content');
  t.equal((await read('saved.txt')).json.data, 'first version\n', 'and reads back');

  t.equal((await save('deep/er/still/new.yaml', 'a: 1\n', { file_type: 'yaml' })).status, 200, 'missing directories are created');
  t.equal(readFileSync(path.join(project, 'deep/er/still/new.yaml'), 'utf8'), 'a: 1\n');

  t.equal((await save(path.join(project, 'abs.txt'), 'absolute\n')).status, 200, 'an absolute path inside the project is allowed');
  t.equal(readFileSync(path.join(project, 'abs.txt'), 'utf8'), 'absolute\n');

  t.equal((await save('empty.txt', '')).status, 200, 'empty content is content');
  t.equal(readFileSync(path.join(project, 'empty.txt'), 'utf8'), '');
  const unicode = 'ünï cødé ✓ 🐈\r\nline two\u0000 with a NUL in the content\n';
  t.equal((await save('unicode.txt', unicode)).status, 200);
  t.equal(readFileSync(path.join(project, 'unicode.txt'), 'utf8'), unicode, 'content is written byte for byte');

  const dir = path.join(project, 'atomic');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'target.txt'), 'original\n');
  t.equal((await save('atomic/target.txt', 'replaced\n')).status, 200);
  t.equal(readFileSync(path.join(dir, 'target.txt'), 'utf8'), 'replaced\n', 'an existing file is overwritten');
  t.same(readdirSync(dir), ['target.txt'], 'no temporary file is left behind');

  // readers during a burst of saves see one whole version or the other, never a mix or a cut
  const A = 'A'.repeat(512 * 1024);
  const B = 'B'.repeat(512 * 1024);
  const writes = [];
  const reads = [];
  for (let i = 0; i < 12; i++) {
    writes.push(save('atomic/target.txt', i % 2 === 0 ? A : B));
    reads.push(read('atomic/target.txt'));
  }
  const saved = await Promise.all(writes);
  t.ok(saved.every((r) => r.status === 200), 'every concurrent save succeeded');
  const seen = (await Promise.all(reads)).map((r) => r.json?.data);
  t.ok(
    seen.every((content) => content === 'replaced\n' || content === A || content === B),
    'every concurrent read saw a whole version',
  );
  const final = readFileSync(path.join(dir, 'target.txt'), 'utf8');
  t.ok(final === A || final === B, 'the file holds one whole version');
  t.same(readdirSync(dir), ['target.txt'], 'still no temporary file left behind');
});

t.test('paths that climb out are refused with "Path traversal detected"', async (t) => {
  const outsideAbs = path.join(outside, 'secret.txt');
  const climbs = [
    '../outside.txt',
    '../outside/secret.txt',
    'a/../../x',
    'data/../../outside/secret.txt',
    '../../../../../../etc/passwd',
    '..',
    '..%2foutside%2fsecret.txt',
    '..%2f..%2fetc%2fpasswd',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e/outside/secret.txt',
    '%2e%2e%2foutside%2fsecret.txt',
    '%252e%252e%252foutside%252fsecret.txt',
    '%252e%252e%252f%252e%252e%252fetc%252fpasswd',
    '/etc/passwd',
    outsideAbs,
    base,
    `${project}/../outside/secret.txt`,
    `${project}-sibling/file.txt`,
    'notes.txt\u0000.png',
  ];
  for (const p of climbs) traversal(t, await read(p), `read ${JSON.stringify(p)}`);
  for (const p of climbs) {
    // never /etc/passwd as a write target: if the check failed, the test must not break the machine
    const target = p.replaceAll('etc/passwd', 'etc/mock-e2e-should-not-exist').replace(/^\/etc\/.*/, '/etc/mock-e2e-should-not-exist');
    traversal(t, await save(target, 'pwned\n'), `save ${JSON.stringify(target)}`);
  }
  t.equal(readFileSync(outsideAbs, 'utf8'), SECRET, 'the outside file is unchanged');
});

t.test('symlinks leading out of the project are refused for reads and writes', async (t) => {
  traversal(t, await read('link-out.txt'), 'read through a symlinked file');
  traversal(t, await save('link-out.txt', 'pwned\n'), 'write through a symlinked file');
  t.equal(readFileSync(path.join(outside, 'secret.txt'), 'utf8'), SECRET, 'the outside file is unchanged');
  t.ok(lstatSync(path.join(project, 'link-out.txt')).isSymbolicLink(), 'the symlink itself is still there');

  traversal(t, await read('linkdir/secret.txt'), 'read in a symlinked directory');
  traversal(t, await read('linkdir/missing.txt'), 'read a missing file in a symlinked directory');
  traversal(t, await save('linkdir/new.txt', 'pwned\n'), 'create a file in a symlinked directory');
  traversal(t, await save('linkdir/secret.txt', 'pwned\n'), 'overwrite a file in a symlinked directory');
  traversal(t, await save('linkdir/sub/deeper/new.txt', 'pwned\n'), 'create directories in a symlinked directory');
  traversal(t, await save(path.join(project, 'linkdir', 'abs.txt'), 'pwned\n'), 'an absolute path through the symlinked directory');
  t.equal(readFileSync(path.join(outside, 'secret.txt'), 'utf8'), SECRET, 'the outside file is unchanged');
});

t.test('dangling symlinks leading out of the project are refused too', async (t) => {
  traversal(t, await read('dangling-out.txt'), 'read through a dangling symlink');
  traversal(t, await save('dangling-out.txt', 'pwned\n'), 'write through a dangling symlink');
  t.notOk(statSync(path.join(outside, 'missing.txt'), { throwIfNoEntry: false }), 'its target was not created');
  traversal(t, await save('dangling-dir/new.txt', 'pwned\n'), 'create a file in a dangling symlinked directory');
  t.notOk(statSync(path.join(outside, 'missing-dir'), { throwIfNoEntry: false }), 'the directory it points to was not created');
});

t.test('invalid bodies are a 400 naming the problem', async (t) => {
  refused(t, await post('files/content', {}), /file_path/, 'content: missing file_path');
  refused(t, await post('files/content', { file_path: 42 }), /file_path/, 'content: file_path not a string');
  refused(t, await post('files/content', { file_path: '' }), /file_path/, 'content: empty file_path');
  refused(t, await post('files/content', { file_path: 'notes.txt', file_type: 'exe' }), /file_type/, 'content: file_type outside the list');
  refused(t, await post('files/content', { file_path: 'notes.txt', mode: 'raw' }), /mode/, 'content: unknown field');
  refused(t, await post('files/save', { file_path: 'x.txt' }), /content/, 'save: missing content');
  refused(t, await post('files/save', { content: 'x' }), /file_path/, 'save: missing file_path');
  refused(t, await post('files/save', { file_path: 'x.txt', content: 42 }), /content/, 'save: content a number');
  refused(t, await post('files/save', { file_path: 'x.txt', content: { a: 1 } }), /content/, 'save: content an object');
  refused(t, await post('files/save', { file_path: 'x.txt', content: null }), /content/, 'save: content null');
  refused(t, await post('files/save', { file_path: 'x.txt', content: 'x', file_type: 'binary' }), /file_type/, 'save: file_type outside the list');
  refused(t, await post('files/save', { file_path: ['x.txt'], content: 'x' }), /file_path/, 'save: file_path an array');
  refused(t, await post('files/save', { file_path: 'folder.yaml', content: 'x' }), /not a regular file/, 'save over a directory');
  refused(t, await post('files/save', { file_path: 'x.txt', content: 'x'.repeat(10 * 1024 * 1024 + 1) }), /content/, 'save: content over 10 MiB');
  const underFile = await post('files/save', { file_path: 'notes.txt/child.txt', content: 'x' });
  t.equal(underFile.status, 400, `save below a regular file: 400, not ${underFile.status} (${underFile.text.slice(0, 200)})`);
  t.equal(underFile.json?.success, false);
  t.equal(readFileSync(path.join(project, 'notes.txt'), 'utf8'), 'hello from the project\n', 'the file in the way is unchanged');
  refused(t, await post('files/save', null, { raw: '{"file_path": "x.txt", ' }), /JSON/, 'save: malformed JSON');
  refused(t, await post('files/content', null, { raw: '[]' }), /./, 'content: an array');
  refused(t, await post('files/content', null, { raw: '' }), /./, 'content: no body');
  t.notOk(statSync(path.join(project, 'x.txt'), { throwIfNoEntry: false }), 'no invalid save wrote a file');
});

t.test('the files endpoints are not on the HTTP server management router', async (t) => {
  const res = await post('files/content', { file_path: 'notes.txt' }, { base: server.url });
  t.equal(res.status, 404);
  const saved = await post('files/save', { file_path: 'router.txt', content: 'x' }, { base: server.url });
  t.equal(saved.status, 404);
  t.notOk(statSync(path.join(project, 'router.txt'), { throwIfNoEntry: false }));
});

t.test('without a config file the working directory is the project directory', async (t) => {
  const cwd = tmpdir();
  writeFileSync(path.join(cwd, 'here.txt'), 'in the working directory\n');
  const s = await startMock(['--spec', PETSTORE, '--out', tmpdir(), '--admin', '--admin-port', '0'], { cwd });
  t.teardown(() => s.stop());
  const res = await post('files/content', { file_path: 'here.txt' }, { base: s.adminUrl });
  t.equal(res.status, 200, res.text);
  t.equal(res.json?.data, 'in the working directory\n');
  const saved = await post('files/save', { file_path: 'made/here.txt', content: 'made\n' }, { base: s.adminUrl });
  t.equal(saved.status, 200, saved.text);
  t.equal(readFileSync(path.join(cwd, 'made/here.txt'), 'utf8'), 'made\n');
  traversal(t, await post('files/content', { file_path: PETSTORE }, { base: s.adminUrl }), 'the spec outside the working directory');
});

t.test('nothing outside the project was created or changed', async (t) => {
  t.same(outsideState(), before, 'the directory around the project is as it was');
  t.same(readdirSync('/etc').sort(), etcBefore, 'nothing was created in /etc');
  t.notOk(statSync('/etc/mock-e2e-should-not-exist', { throwIfNoEntry: false }));
  const leftovers = Object.keys(snapshot(project)).filter((key) => /\.\d+$|\.tmp|~$/.test(key));
  t.same(leftovers, [], 'no temporary files anywhere in the project');
  t.notMatch(server.stdout + server.stderr, /admin request failed/, 'no request made the admin API fail with a 500');
});
