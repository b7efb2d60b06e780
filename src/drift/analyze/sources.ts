import { createReadStream, existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import path from 'node:path';
import { pipeline, type Duplex } from 'node:stream';
import { parserStream } from 'stream-json';
import pick from 'stream-json/filters/pick.js';
import streamArray from 'stream-json/streamers/stream-array.js';
import streamValues from 'stream-json/streamers/stream-values.js';
import { listFixtureFiles, readFixtureFile, problemLine } from '../../../common/fixtures/index.js';
import { isMockError, MockError } from '../../../common/errors.js';
import type { Capture } from '../../../runtime/index.js';
import { captureOfFixture } from './fixture.js';
import { captureOfHarEntry } from './har.js';
import { captureOfRecording } from './recording.js';

/** What --request-path holds, told by its content more than its name. */
export type SourceKind = 'json' | 'har' | 'recorder' | 'fixtures';

const SOURCES = 'a JSON file (one capture or a list), JSON Lines, a HAR file, a recordings database of mock serve --recorder, or a fixtures folder';
const fail = (message: string): MockError => new MockError('MOCK_ERR_CAPTURE_SOURCE', message, 2);

/** Tokens of whole keys, strings and numbers only: the streamers assemble values, and chunks of them would double the work. */
const PACKED = { streamValues: false };

/** Rows read from a recordings database at once. */
const RECORDER_PAGE = 500;

function head(file: string, bytes: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

export function sourceKind(requestPath: string, shown: string): SourceKind {
  const stat = statSync(requestPath, { throwIfNoEntry: false });
  if (stat === undefined) throw fail(`--request-path ${shown}: no such file or folder; give ${SOURCES}`);
  if (stat.isDirectory()) return 'fixtures';
  if (!stat.isFile()) throw fail(`--request-path ${shown} is not a file or a folder; give ${SOURCES}`);
  const start = head(requestPath, 4096);
  if (start.subarray(0, 16).toString('latin1') === 'SQLite format 3\u0000') return 'recorder';
  const text = start.toString('utf8').replace(/^\uFEFF/, '');
  if (path.extname(requestPath).toLowerCase() === '.har' || /^\s*\{\s*"log"\s*:/.test(text)) return 'har';
  if (/^\s*[[{]/.test(text)) return 'json';
  throw fail(`--request-path ${shown} is neither JSON nor a recordings database; give ${SOURCES}`);
}

/**
 * The captures of --request-path one at a time, in bounded memory whatever the size: JSON (an
 * array or one or more concatenated objects, JSON Lines) and HAR files are streamed with
 * stream-json, a recordings database read page by page, a fixtures folder file by file.
 */
export async function* readCaptures(
  requestPath: string,
  shown: string,
  read: (value: unknown, where: string) => Capture,
  skipped: (protocol: string) => void = () => undefined,
): AsyncGenerator<Capture> {
  const kind = sourceKind(requestPath, shown);
  if (kind === 'recorder') yield* fromRecorder(requestPath);
  else if (kind === 'fixtures') yield* fromFixtures(requestPath, shown);
  else yield* fromJson(requestPath, shown, kind, read, skipped);
}

async function* fromJson(file: string, shown: string, kind: 'json' | 'har', read: (value: unknown, where: string) => Capture, skipped: (protocol: string) => void): AsyncGenerator<Capture> {
  const isArray =
    kind === 'json' &&
    /^\s*\[/.test(
      head(file, 4096)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
  const stages: Duplex[] =
    kind === 'har'
      ? [parserStream(PACKED), pick.asStream({ filter: 'log.entries' }), streamArray.asStream()]
      : isArray
        ? [parserStream(), streamArray.asStream()]
        : [parserStream({ ...PACKED, jsonStreaming: true }), streamValues.asStream()];
  // pipeline ends every stage with the first error, which the loop below then throws
  const items = pipeline([createReadStream(file), ...stages], () => undefined) as unknown as Duplex;
  let index = 0;
  try {
    for await (const { value } of items as AsyncIterable<{ value: unknown }>) {
      if (kind === 'har') {
        const read = captureOfHarEntry(value, index);
        if ('problem' in read) throw fail(`--request-path ${shown}: ${read.problem}; give a HAR 1.2 file`);
        if ('skip' in read) skipped(read.skip);
        else yield read.capture;
      } else {
        const capture = read(value, `--request-path ${shown}: capture ${index + 1}`);
        capture.id ??= `${path.basename(file)}#${index + 1}`;
        yield capture;
      }
      index++;
    }
  } catch (e) {
    if (isMockError(e)) throw new MockError(e.code, e.message, 2);
    throw fail(`--request-path ${shown} is not valid JSON (${e instanceof Error ? e.message : String(e)}); give ${SOURCES}`);
  } finally {
    items.destroy();
  }
  if (kind === 'har' && index === 0) throw fail(`--request-path ${shown}: the HAR file has no log.entries; export one with the browser's "Save all as HAR"`);
}

async function* fromRecorder(file: string): AsyncGenerator<Capture> {
  const { RecordingsFile } = await import('../../../runtime/index.js');
  const db = await RecordingsFile.open(file, '--request-path');
  try {
    for (let after = 0; ;) {
      const page = db.after(after, RECORDER_PAGE);
      if (page.length === 0) return;
      for (const recording of page) yield captureOfRecording(recording);
      after = page[page.length - 1].id;
    }
  } finally {
    db.close();
  }
}

/** core.fixtures.dir (holding http/) or its http/ folder itself. */
async function* fromFixtures(dir: string, shown: string): AsyncGenerator<Capture> {
  const root = existsSync(path.join(dir, 'http')) || path.basename(dir) !== 'http' ? dir : path.dirname(dir);
  const files = listFixtureFiles(root, 'http');
  if (files.length === 0) throw fail(`--request-path ${shown} holds no fixture files (http/*.json); record some with mock serve --record, or give ${SOURCES}`);
  for (const file of files) {
    const read = readFixtureFile(root, file, 'http');
    if ('problems' in read) throw fail(`--request-path: ${problemLine(read.problems[0])}`);
    yield captureOfFixture(read.loaded.fixture, read.loaded.relative);
  }
}
