// runtime/files/recording-file.ts: a recording written as it goes appears whole under the first
// free number, never replaces a file, keeps its byte budget, and leaves nothing when abandoned;
// writers of one project share their journal, so none drops it while another's file is open.
import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { AtomicWriter, RecordingFile, WaitingBytes } from '../../../dist/runtime/files/index.js';
import { until } from '../../helpers/wait.js';

const journalsOf = (cache) => {
  const root = path.join(cache, 'mock', 'saves');
  try {
    return readdirSync(root).flatMap((d) => readdirSync(path.join(root, d)));
  } catch {
    return [];
  }
};

t.test('finish links each recording to the next free number; abandon leaves nothing', async (t) => {
  const dir = t.testdir({ project: { calls: { 'call-0002.jsonl': 'someone else\n' } }, cache: {} });
  const folder = path.join(dir, 'project', 'calls');
  const cache = path.join(dir, 'cache');
  const writer = new AtomicWriter(path.join(dir, 'project'), cache);
  const files = [0, 1, 2].map(() => new RecordingFile(writer, folder, 'call', 1024 * 1024));
  files.forEach((file, i) => file.append(`line of ${i}\n${'x'.repeat(70_000)}\n`));
  // the writes start at once, in the background (the file is opened on libuv's thread pool)
  t.ok(await until(() => readdirSync(folder).some((name) => name.startsWith('.recording-')), 5000, 'a temporary file'), 'written before they end');
  await files[2].abandon();
  const saved = await Promise.all([files[0].finish(), files[1].finish()]);
  t.same(saved.map((f) => path.basename(f)).sort(), ['call-0003.jsonl', 'call-0004.jsonl'], 'after the highest number, each its own');
  t.equal(readFileSync(path.join(folder, 'call-0002.jsonl'), 'utf8'), 'someone else\n', 'an existing file is never replaced');
  t.same(readdirSync(folder).sort(), ['call-0002.jsonl', 'call-0003.jsonl', 'call-0004.jsonl'], 'no hidden file left');
  t.same(journalsOf(cache), [], 'the journal is gone once nothing is in flight');
  t.equal(await new RecordingFile(writer, folder, 'call', 10).finish(), undefined, 'nothing appended: no file');
});

t.test('the byte budget: an append that would pass it is refused, a closing line is not', async (t) => {
  const dir = t.testdir({ project: {}, cache: {} });
  const writer = new AtomicWriter(path.join(dir, 'project'), path.join(dir, 'cache'));
  const file = new RecordingFile(writer, path.join(dir, 'project', 's'), 'session', 10);
  t.equal(file.append('12345\n'), true);
  t.equal(file.append('67890\n'), false, 'past 10 bytes');
  t.equal(file.full, true);
  t.equal(file.append('end\n', true), true, 'always');
  const saved = await file.finish();
  t.equal(readFileSync(saved, 'utf8'), '12345\nend\n');
  t.equal(file.append('late\n'), false, 'nothing after finish');
});

t.test("one writer's save does not drop the journal of another's recording in flight", async (t) => {
  const dir = t.testdir({ project: {}, cache: {} });
  const project = path.join(dir, 'project');
  const cache = path.join(dir, 'cache');
  const recorder = new AtomicWriter(project, cache);
  const saver = new AtomicWriter(project, cache);
  const file = new RecordingFile(recorder, path.join(project, 'ws'), 'session', 1024 * 1024);
  file.append(`${'y'.repeat(70_000)}\n`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await saver.write(path.join(project, 'other.json'), '{}');
  t.equal(journalsOf(cache).length, 1, 'the open recording is still journaled');
  await file.finish();
  t.same(journalsOf(cache), []);
});

t.test('recordings share one budget of bytes waiting to be written: past it an append is refused (behind), written bytes free it', async (t) => {
  const dir = t.testdir({ project: {}, cache: {} });
  const writer = new AtomicWriter(path.join(dir, 'project'), path.join(dir, 'cache'));
  const waiting = new WaitingBytes(100_000);
  const folder = path.join(dir, 'project', 'sessions');
  const [a, b] = [0, 1].map(() => new RecordingFile(writer, folder, 'session', 1024 * 1024, waiting));
  t.ok(a.append(`${'a'.repeat(80_000)}\n`), 'the first recording takes 80 KB of the 100 KB');
  t.notOk(b.append(`${'b'.repeat(40_000)}\n`), 'the second would pass the budget: refused');
  t.ok(b.behind && !b.full, 'behind, not full: its own max is far');
  t.ok(b.append('end\n', true), 'a closing line always goes');
  await a.finish();
  t.equal(waiting.bytes, 4, 'what the first wrote no longer waits');
  const c = new RecordingFile(writer, folder, 'session', 1024 * 1024, waiting);
  t.ok(c.append(`${'c'.repeat(40_000)}\n`), 'a later recording has room again');
  await Promise.all([b.finish(), c.abandon()]);
  t.equal(waiting.bytes, 0, 'finished and abandoned recordings hold nothing');
});
