// runtime/files/atomic-writer.ts: saves are atomic, and a crash mid-save leaves nothing behind.
import t from 'tap';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
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

t.test('sweep removes the temporary files beside the targets of dead processes, only those, only inside the project', async (t) => {
  const dir = t.testdir({
    project: { 'a.yaml': 'kept', 'a.yaml.123456': 'half a save', 'a.yaml.bak': 'a backup', 'a.yaml.12.3': 'not a temporary name', 'b.yaml.42': 'a live save' },
    outside: { 'x.yaml.1': 'not ours' },
    cache: {},
  });
  const project = path.join(dir, 'project');
  const writer = new AtomicWriter(project, path.join(dir, 'cache'));
  await writer.write(path.join(project, 'c.yaml'), 'c');
  const [journalDir] = readdirSync(path.join(dir, 'cache', 'mock', 'saves'));
  const journals = path.join(dir, 'cache', 'mock', 'saves', journalDir);
  const line = (file) => `${JSON.stringify(file)}\n`;
  // pid 2^22 + 1 is above Linux's pid_max: no such process
  writeFileSync(path.join(journals, '4194305.jsonl'), line(path.join(project, 'a.yaml')) + line(path.join(dir, 'outside', 'x.yaml')) + 'not json\n');
  writeFileSync(path.join(journals, `${process.ppid}.jsonl`), line(path.join(project, 'b.yaml')));
  t.strictSame(writer.sweep(), [path.join(project, 'a.yaml.123456')]);
  t.notOk(existsSync(path.join(project, 'a.yaml.123456')), 'the stale temporary file is gone');
  for (const kept of ['a.yaml', 'a.yaml.bak', 'a.yaml.12.3']) t.ok(existsSync(path.join(project, kept)), `${kept} is not a temporary file and stays`);
  t.ok(existsSync(path.join(dir, 'outside', 'x.yaml.1')), 'nothing outside the project is touched');
  t.ok(existsSync(path.join(project, 'b.yaml.42')), 'a running process keeps its temporary file');
  t.strictSame(readdirSync(journals), [`${process.ppid}.jsonl`], 'the dead journal is gone');
});
