// runtime/control/admin/project-files.ts: paths given to the admin API stay inside the project directory.
import t from 'tap';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { resolveInside } from '../../../dist/runtime/control/admin/project-files.js';

const refused = (t, root, input) => {
  const error = t.throws(() => resolveInside(root, input, 'file_path'), undefined, JSON.stringify(input));
  t.equal(error.status, 400);
  t.match(error.message, /^Path traversal detected/);
};

t.test('inside paths resolve; escapes are refused', async (t) => {
  const top = t.testdir({ project: { 'a.txt': 'a', sub: { 'b.txt': 'b' } }, 'outside.txt': 'secret' });
  const root = realpathSync(path.join(top, 'project'));
  mkdirSync(path.join(top, 'elsewhere'));
  symlinkSync(path.join(top, 'outside.txt'), path.join(root, 'link.txt'));
  symlinkSync(path.join(top, 'elsewhere'), path.join(root, 'linkdir'));
  symlinkSync(path.join(root, 'sub'), path.join(root, 'inner'));

  t.equal(resolveInside(root, 'a.txt', 'file_path'), path.join(root, 'a.txt'));
  t.equal(resolveInside(root, 'sub/b.txt', 'file_path'), path.join(root, 'sub/b.txt'));
  t.equal(resolveInside(root, 'new/dir/c.txt', 'file_path'), path.join(root, 'new/dir/c.txt'), 'files to be created');
  t.equal(resolveInside(root, path.join(root, 'a.txt'), 'file_path'), path.join(root, 'a.txt'), 'absolute inside');
  t.equal(resolveInside(root, 'inner/b.txt', 'file_path'), path.join(root, 'inner/b.txt'), 'a symlink that stays inside');
  t.equal(resolveInside(root, '100%.txt', 'file_path'), path.join(root, '100%.txt'), 'a % is a %');

  for (const input of ['../outside.txt', 'sub/../../outside.txt', '..\\outside.txt', '/etc/passwd', '..%2foutside.txt', '%2e%2e/outside.txt', '%252e%252e%252foutside.txt', 'link.txt', 'linkdir/new.txt', 'a\0.txt']) {
    refused(t, root, input);
  }
  writeFileSync(path.join(top, 'outside.txt'), 'secret');
});

t.test('a path must be a non-empty string', async (t) => {
  const root = t.testdir({});
  for (const input of [undefined, 3, '', '  ']) {
    const error = t.throws(() => resolveInside(root, input, 'file_path'));
    t.equal(error.status, 400);
    t.match(error.message, /^file_path must be a non-empty path/);
  }
});

t.test('dangling symlinks count as where they point', async (t) => {
  const top = t.testdir({ project: {} });
  const root = realpathSync(path.join(top, 'project'));
  symlinkSync(path.join(top, 'missing.txt'), path.join(root, 'out.txt'));
  symlinkSync(path.join(top, 'missing-dir'), path.join(root, 'outdir'));
  symlinkSync(path.join(root, 'later.txt'), path.join(root, 'in.txt'));
  symlinkSync(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
  symlinkSync(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
  refused(t, root, 'out.txt');
  refused(t, root, 'outdir/new.txt');
  refused(t, root, 'loop-a');
  t.equal(resolveInside(root, 'in.txt', 'file_path'), path.join(root, 'in.txt'), 'a dangling link inside stays allowed');
});
