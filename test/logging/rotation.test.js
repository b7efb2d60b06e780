// logging.file rotation: at max_size_mb, keeping max_files (the live file included), across restarts.
// The schema takes whole megabytes, so the tests write real megabytes: each request carries a
// 3.5 KB header, which its log line repeats (about 270 lines to the megabyte).
import t from 'tap';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from '../helpers/cli.js';
import { jsonLines, serveWith } from './helpers.js';

const MB = 1024 * 1024;
/** A file may pass the limit by the last piece written (file-transport.ts cuts pieces at 64 KiB) plus one line. */
const SLACK = 64 * 1024 + 8 * 1024;
const pad = 'x'.repeat(3500);

/** Sends `count` requests, 8 at a time; meanwhile counts the files in `dir`, returning the most seen. */
async function load(url, count, dir) {
  let most = 0;
  const watch = setInterval(() => {
    most = Math.max(most, readdirSync(dir).length);
  }, 10);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await fetch(`${url}/v1/pets/1`, { headers: { 'x-pad': pad } });
      await res.text();
      if (res.status !== 200) throw new Error(`status ${res.status}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: 8 }, worker));
  } finally {
    clearInterval(watch);
  }
  return Math.max(most, readdirSync(dir).length);
}

const linesOf = (file) => jsonLines(readFileSync(file, 'utf8'));

t.test('rotates at max_size_mb and keeps max_files, also after a restart', async (t) => {
  const dir = tmpdir();
  const logs = path.join(dir, 'logs');
  const yaml = 'logging:\n  format: json\n  file: logs/mock.log\n  max_size_mb: 1\n  max_files: 3\n  request_lines_per_second: 0\n';

  const first = await serveWith(yaml, { dir });
  t.teardown(() => first.stop());
  const most = await load(first.url, 1400, logs);
  t.equal(await first.stop(), 0);
  t.ok(most <= 3, `never more than max_files files (saw at most ${most})`);
  t.same(readdirSync(logs).sort(), ['mock.log', 'mock.log.1', 'mock.log.2'], 'the live file and max_files - 1 older ones');

  for (const name of ['mock.log.1', 'mock.log.2']) {
    const size = statSync(path.join(logs, name)).size;
    t.ok(size >= MB && size <= MB + SLACK, `${name} rotated at 1 MB: ${size} bytes`);
  }
  t.ok(statSync(path.join(logs, 'mock.log')).size <= MB + SLACK, 'the live file is within the limit');

  // whole lines only, and older files hold older lines
  const [older, old, live] = ['mock.log.2', 'mock.log.1', 'mock.log'].map((name) => linesOf(path.join(logs, name)));
  t.ok(older.length > 200 && old.length > 200, `files hold whole lines (${older.length}, ${old.length})`);
  t.ok(older.at(-1).time <= old[0].time && old.at(-1).time <= live[0].time, 'mock.log.2 is older than mock.log.1, older than mock.log');
  t.equal(live.at(-1).msg, 'shutting down (SIGTERM)');

  // a restart appends to the live file and rotates what is on disk: still max_files files
  const second = await serveWith(yaml, { dir });
  t.teardown(() => second.stop());
  const mostAgain = await load(second.url, 600, logs);
  t.equal(await second.stop(), 0);
  t.ok(mostAgain <= 3, `never more than max_files files after a restart (saw at most ${mostAgain})`);
  t.same(readdirSync(logs).sort(), ['mock.log', 'mock.log.1', 'mock.log.2']);
  const newest = linesOf(path.join(logs, 'mock.log.1'));
  t.ok(newest.some((line) => line.pid === second.child.pid), 'the rotated files now hold the second run');
});

t.test('max_files 1 keeps only the live file', async (t) => {
  const dir = tmpdir();
  const server = await serveWith('logging:\n  format: json\n  file: mock.log\n  max_size_mb: 1\n  max_files: 1\n  request_lines_per_second: 0\n', { dir });
  t.teardown(() => server.stop());
  await load(server.url, 700, dir);
  t.equal(await server.stop(), 0);
  const logFiles = readdirSync(dir).filter((name) => name.startsWith('mock.log'));
  t.same(logFiles, ['mock.log']);
  t.ok(statSync(path.join(dir, 'mock.log')).size <= MB + SLACK, 'within the limit');
});
