import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import type { ConvertFormat, Recording, RecordingsFile } from '../../runtime/index.js';
import { displayPath } from '../config/index.js';
import { emit, writeAtomically } from '../data/output.js';

export interface ConvertOptions {
  /** The recordings database (absolute). */
  input: string;
  /** One recording; absent: every one. */
  recordingId?: number;
  /** A file, or a folder (the suggested file name in it; json of every recording: one file each); absent: stdout. */
  output?: string;
  format: ConvertFormat;
}

const isFolder = (target: string): boolean => target.endsWith('/') || target.endsWith(path.sep) || statSync(target, { throwIfNoEntry: false })?.isDirectory() === true;

const told = (line: string): void => void process.stderr.write(`mock: ${line}\n`);

/** `mock recorder convert`: recordings as fixture files or custom routes, to a file, a folder or stdout. */
export async function convertRecordings(options: ConvertOptions): Promise<void> {
  const { RecordingsFile, convertRecording, toFixtures, toRoutesYaml } = await import('../../runtime/index.js');
  const db = await RecordingsFile.open(options.input, '--input');
  try {
    const { output, format } = options;
    if (options.recordingId !== undefined) {
      const { fileName, text } = convertRecording(recordingOf(db, options.recordingId), format);
      const target = output === undefined ? undefined : isFolder(output) ? path.join(output, fileName) : output;
      await emit(text, target);
      if (target !== undefined) told(`wrote recording ${options.recordingId} to ${displayPath(target)} (${format === 'json' ? 'a fixture' : 'custom routes'})`);
      return;
    }
    const recordings = db.newest();
    if (recordings.length === 0) throw new MockError('MOCK_ERR_RECORDER_DB', `${displayPath(options.input)} holds no recordings yet: send requests to mock serve --recorder first`);
    if (format === 'yaml') {
      const target = output === undefined ? undefined : isFolder(output) ? path.join(output, 'recordings.yaml') : output;
      await emit(toRoutesYaml(recordings), target);
      if (target !== undefined) told(`wrote ${recordings.length} recording(s) to ${displayPath(target)} as custom routes`);
      return;
    }
    const fixtures = toFixtures(recordings);
    if (output === undefined) {
      await emit(`${JSON.stringify(fixtures.map((f) => JSON.parse(f.text) as unknown), null, 2)}\n`, undefined);
      return;
    }
    if (statSync(output, { throwIfNoEntry: false })?.isFile() === true) {
      throw new MockError('MOCK_ERR_FLAG_INVALID', `--output ${displayPath(output)} is a file: json without --recording-id writes one fixture file per recording into a folder; give a folder (made if missing)`);
    }
    mkdirSync(output, { recursive: true });
    for (const { fileName, text } of fixtures) writeAtomically(path.join(output, fileName), text);
    told(`wrote ${fixtures.length} fixture file(s) to ${displayPath(output)}`);
  } finally {
    db.close();
  }
}

function recordingOf(db: RecordingsFile, id: number): Recording {
  const recording = db.get(id);
  if (recording !== undefined) return recording;
  throw new MockError('MOCK_ERR_FLAG_INVALID', `--recording-id ${id}: ${displayPath(db.file)} has no such recording (it holds ${db.count()}; omit --recording-id to convert every one)`);
}
