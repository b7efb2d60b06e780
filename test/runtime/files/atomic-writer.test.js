// runtime/files/atomic-writer.ts: saves are atomic, and a crash mid-save leaves nothing behind.
import t from 'tap';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AtomicWriter } from '../../../dist/runtime/files/index.js';

t.test('write replaces the file and clears its journal', async (t) => {
  const dir = t.testdir({ project: { 'a.yaml': 'old' }, cache: {} });
  const writer = new AtomicWriter(path.join(dir, 'project'), path.join(dir, 'cache'));
  await writer.write(path.join(dir, 'project', 'a.yaml'), 'new');
  t.equal(readFileSync(path.join(dir, 'project', 'a.yaml'), 'utf8'), 'new');
  t.strictSame(readdirSync(path.join(dir, 'project')), ['a.yaml'], 'no temp file');
  const journals = path.join(dir, 'cache', 'mock', 'saves');
  t.strictSame(readdirSync(journals).flatMap((d) => readdirSync(path.join(journals, d))), [], 'no journal once nothing is in flight');
});

t.test('sweep removes the temp files of dead processes, only those, only inside the project', async (t) => {
  const dir = t.testdir({ project: { 'a.yaml': 'kept', 'a.yaml.123456': 'half a save', 'b.yaml.42': 'a live save' }, outside: { 'x.yaml.1': 'not ours' }, cache: {} });
  const project = path.join(dir, 'project');
  const writer = new AtomicWriter(project, path.join(dir, 'cache'));
  await writer.write(path.join(project, 'c.yaml'), 'c');
  const [journalDir] = readdirSync(path.join(dir, 'cache', 'mock', 'saves'));
  const journals = path.join(dir, 'cache', 'mock', 'saves', journalDir);
  const line = (file) => `${JSON.stringify(file)}\n`;
  // pid 2^22 + 1 is above Linux's pid_max: no such process
  writeFileSync(path.join(journals, '4194305.jsonl'), line(path.join(project, 'a.yaml.123456')) + line(path.join(dir, 'outside', 'x.yaml.1')) + line(path.join(project, 'a.yaml')) + 'not json\n');
  writeFileSync(path.join(journals, `${process.ppid}.jsonl`), line(path.join(project, 'b.yaml.42')));
  t.strictSame(writer.sweep(), [path.join(project, 'a.yaml.123456')]);
  t.notOk(existsSync(path.join(project, 'a.yaml.123456')), 'the stale temp file is gone');
  t.ok(existsSync(path.join(project, 'a.yaml')), 'a file that is not a temp file stays');
  t.ok(existsSync(path.join(dir, 'outside', 'x.yaml.1')), 'nothing outside the project is touched');
  t.ok(existsSync(path.join(project, 'b.yaml.42')), 'a running process keeps its temp file');
  t.strictSame(readdirSync(journals), [`${process.ppid}.jsonl`], 'the dead journal is gone');
});
