/**
 * The pino transport for `logging.file`: runs in pino's worker thread (never on the request path)
 * and writes to a size-rotated file, pretty-printing first when the format is `text`.
 *
 * Rotation uses rotating-file-stream (zero dependencies, typed, maintained since 2015 with regular
 * 3.x releases) in its classical logrotate mode: the live file is always `logging.file` itself
 * (`tail -f` keeps working), older ones are `<file>.1` (newest) … `<file>.<max_files - 1>`, and
 * rotation renames what is on disk, so the count holds across restarts. pino-roll (pino's own)
 * was the other candidate: it writes to `<name>.<n>.<ext>` (the configured path never exists),
 * counts its limit in addition to the live file, and only prunes files of earlier runs by
 * scanning the directory.
 */
import { unlink } from 'node:fs/promises';
import { Writable } from 'node:stream';
import pretty, { type PrettyOptions } from 'pino-pretty';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';

export interface FileTransportOptions {
  /** Absolute path of the live file. */
  file: string;
  /** Rotate once the live file reaches this size. */
  maxSizeBytes: number;
  /** Files kept, the live one included (at least 1). */
  maxFiles: number;
  /** Pretty-print (`text` format) with these options; absent: pino's JSON lines as they are. */
  pretty?: PrettyOptions;
}

/**
 * rotating-file-stream checks the size after each chunk it is given, and pino hands the worker
 * whatever has accumulated (up to megabytes under load): chunks are cut at a line end past this
 * many characters, so a file overshoots `max_size_mb` by at most about this much.
 */
const PIECE = 64 * 1024;

export default function fileTransport(options: FileTransportOptions): Writable {
  const file = rotatingFile(options);
  if (options.pretty !== undefined) return pretty({ ...options.pretty, destination: file });
  return new LinePieces(file);
}

function rotatingFile({ file, maxSizeBytes, maxFiles }: FileTransportOptions): RotatingFileStream {
  const stream = createStream(file, {
    size: `${Math.max(1, Math.round(maxSizeBytes))}B`,
    // classical mode needs at least one rotated file; with max_files 1 it is deleted at once
    rotate: Math.max(1, maxFiles - 1),
  });
  if (maxFiles <= 1) {
    stream.on('rotated', (rotated) => {
      unlink(rotated).catch(() => undefined);
    });
  }
  return stream;
}

/** Passes pino's output to the file in pieces of whole lines; ends (and closes) with the file. */
class LinePieces extends Writable {
  private readonly file: RotatingFileStream;

  constructor(file: RotatingFileStream) {
    super({ decodeStrings: false });
    this.file = file;
    file.on('error', (e) => this.destroy(e));
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let ok = true;
    let start = 0;
    while (text.length - start > PIECE) {
      const end = text.indexOf('\n', start + PIECE);
      if (end === -1 || end === text.length - 1) break;
      ok = this.file.write(text.slice(start, end + 1));
      start = end + 1;
    }
    ok = this.file.write(start === 0 ? text : text.slice(start)) && ok;
    if (ok) done();
    else this.file.once('drain', () => done());
  }

  override _final(done: (error?: Error | null) => void): void {
    this.file.once('close', () => done());
    this.file.end();
  }
}
