// runtime/chain/recorder: the request path only queues; batches are written by a writer thread, a
// full queue drops and counts with at most one warning a second, a reader's lock only delays a
// batch, and close() writes what is left. Also: recorder/* writes need an editor when admin auth is on.
// The writer uses node:sqlite where this Node has it and node-sqlite3-wasm otherwise: the lock tests
// hold the lock the way that library's readers do.
import t from 'tap';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { RecorderDb } from '../../../dist/runtime/chain/recorder/index.js';
import { Exchange } from '../../../dist/runtime/chain/exchange/index.js';
import { Redaction } from '../../../dist/runtime/control/logging/index.js';
import { accessFor } from '../../../dist/runtime/control/auth/index.js';
import { tmpdir } from '../../helpers/cli.js';
import { until } from '../../helpers/wait.js';

const { Database } = sqlite;

// the library a recorder of this Node writes with (runtime/chain/recorder/sqlite.ts picks the same way)
const native = process.getBuiltinModule?.('node:sqlite');
const LIBRARY = native === undefined ? 'node-sqlite3-wasm' : 'node:sqlite';

/** Holds the file's lock as a reader in another process would, until the returned function is called. */
function holdLock(file) {
  if (native === undefined) {
    // node-sqlite3-wasm's file system layer locks with a folder beside the file
    mkdirSync(`${file}.lock`);
    return () => rmSync(`${file}.lock`, { recursive: true });
  }
  const db = new native.DatabaseSync(file);
  db.exec('BEGIN EXCLUSIVE');
  return () => {
    db.exec('ROLLBACK');
    db.close();
  };
}

function logger() {
  const warnings = [];
  return { warnings, warn: (fields, message) => warnings.push({ fields, message }) };
}

const exchange = (i) => new Exchange({ method: 'GET', path: `/items/${i}`, headers: { authorization: 'Bearer t' }, client: '127.0.0.1' });
const answer = { status: 200, headers: [['content-type', 'text/plain']], body: 'ok' };
const rows = (file) => {
  const db = new Database(file, { readOnly: true });
  try {
    return db.all('SELECT path, request_headers FROM recordings ORDER BY id');
  } finally {
    db.close();
  }
};

t.test('capture only queues; one batch is written after flushMs, credentials redacted', async (t) => {
  const file = path.join(tmpdir(), 'a.db');
  const log = logger();
  const recorder = await RecorderDb.open({ file, redaction: new Redaction(), logger: log, flushMs: 30 });
  for (let i = 0; i < 3; i++) recorder.capture(exchange(i), answer);
  t.match(recorder.stats(), { queued: 3, recorded: 0 }, 'nothing sent on the request path');
  await until(() => recorder.stats().recorded === 3, 10_000, 'the timed batch');
  t.match(recorder.stats(), { queued: 0, recorded: 3, dropped: 0 }, 'sent by the timer, written by the thread');
  await Promise.all([recorder.close(), recorder.close()]);
  t.same(
    rows(file).map((r) => [r.path, JSON.parse(r.request_headers).authorization]),
    [
      ['/items/0', '[redacted]'],
      ['/items/1', '[redacted]'],
      ['/items/2', '[redacted]'],
    ],
  );
  t.same(log.warnings, []);
});

t.test('a full queue drops and counts, never blocks, and warns once for the lot', async (t) => {
  const file = path.join(tmpdir(), 'b.db');
  const log = logger();
  const recorder = await RecorderDb.open({ file, redaction: new Redaction(), logger: log, flushMs: 1000, maxQueuedRows: 2 });
  for (let i = 0; i < 10; i++) recorder.capture(exchange(i), answer);
  t.match(recorder.stats(), { queued: 2, dropped: 8 });
  await recorder.close();
  t.equal(log.warnings.length, 1, 'one warning');
  t.match(log.warnings[0], { fields: { dropped: 8, dropped_total: 8 }, message: /recorder: 8 exchange\(s\) not recorded: the recorder's write queue is full \(2 exchanges/ });
  t.equal(rows(file).length, 2, 'what was queued is written at close');
});

t.test('while a reader holds the lock the batch waits for the next turn', async (t) => {
  const dir = tmpdir();
  const file = path.join(dir, 'c.db');
  const recorder = await RecorderDb.open({ file, redaction: new Redaction(), logger: logger(), flushMs: 20 });
  const release = holdLock(file);
  recorder.capture(exchange(1), answer);
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.match(recorder.stats(), { queued: 1, recorded: 0, dropped: 0 }, 'the writer waits, nothing is dropped');
  release();
  await until(() => recorder.stats().recorded === 1, 10_000, 'the batch after the lock is gone');
  t.match(recorder.stats(), { queued: 0, recorded: 1 });
  await recorder.close();
});

t.test('batches of batchRows are written at once', async (t) => {
  const file = path.join(tmpdir(), 'd.db');
  const recorder = await RecorderDb.open({ file, redaction: new Redaction(), logger: logger(), flushMs: 60_000, batchRows: 4 });
  for (let i = 0; i < 9; i++) recorder.capture(exchange(i), answer);
  await until(() => recorder.stats().recorded >= 8, 10_000, 'two full batches');
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.match(recorder.stats(), { recorded: 8, queued: 1 }, 'two full batches, the rest waits for its timer');
  await recorder.close();
  t.equal(rows(file).length, 9);
});

t.test('a locked file at start is one line (naming the lock folder where the library locks with one)', async (t) => {
  const file = path.join(tmpdir(), 'e.db');
  const release = holdLock(file);
  t.teardown(release);
  const folder = LIBRARY === 'node-sqlite3-wasm' ? `, or one that was killed left the folder ${file}.lock behind (remove it when no mock serve --recorder uses this file)` : '';
  await t.rejects(RecorderDb.open({ file, redaction: new Redaction(), logger: logger() }), {
    code: 'MOCK_ERR_RECORDER_DB',
    message: `recorder.db_path ${file} is locked: another process records into it${folder}`,
  });
});

t.test('every text body of a batch keeps its own bytes, short, multi-byte or larger than a batch buffer at first; text columns hold text', async (t) => {
  const file = path.join(tmpdir(), 'f.db');
  const recorder = await RecorderDb.open({ file, redaction: new Redaction(), logger: logger(), flushMs: 60_000 });
  t.equal(recorder.stats().library, LIBRARY, 'node:sqlite where this Node has it');
  const bodies = ['a', 'zwölf Boxkämpfer 🥊', 'x'.repeat(100_000), '', 'b'.repeat(70_000) + 'é', 'c'];
  bodies.forEach((body, i) => recorder.capture(new Exchange({ method: 'POST', path: `/items/${i}`, headers: {}, client: '127.0.0.1', body: `req ${i} ${body}` }), { ...answer, body }));
  await recorder.close();
  const db = new Database(file, { readOnly: true });
  const got = db.all('SELECT request_body, response_body FROM recordings ORDER BY id');
  const types = db.get('SELECT typeof(protocol) AS protocol, typeof(query) AS query, query AS empty, typeof(request_headers) AS headers, typeof(route) AS route, typeof(response_body) AS body FROM recordings WHERE id = 2');
  db.close();
  t.same(types, { protocol: 'text', query: 'text', empty: '', headers: 'text', route: 'null', body: 'blob' }, 'bound as bytes, stored as text (an empty query as empty text)');
  t.same(
    got.map((row) => [row.request_body && Buffer.from(row.request_body).toString(), row.response_body && Buffer.from(row.response_body).toString()]),
    bodies.map((body, i) => [`req ${i} ${body}`, body === '' ? null : body]),
  );
});

t.test('recorder/* reads are open, writes need an editor', async (t) => {
  t.equal(accessFor('GET', 'recorder/recordings'), 'open');
  t.equal(accessFor('POST', 'recorder/convert/1'), 'editor');
});
