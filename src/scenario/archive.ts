import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import * as tar from 'tar';
import { MockError } from '../../common/errors.js';

/** Caps of one scenario: unpacked bytes and entries (against decompression bombs), and the archive's own size. */
export const LIMITS = { maxBytes: 100 * 1024 * 1024, maxFiles: 10_000, maxArchiveBytes: 50 * 1024 * 1024 };

/** Entry types a scenario may hold: files and folders. Links, devices and FIFOs are refused, not skipped. */
const ALLOWED = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

/**
 * Unpacks a (gzipped) tar archive into `target` after checking every entry, so a hostile archive
 * leaves nothing behind: node-tar alone strips absolute paths and skips `..` entries with a warning,
 * and follows its own rules for links; here any of those refuses the whole archive. Decompression
 * stops at LIMITS.maxBytes (zlib's maxOutputLength) before tar reads a byte.
 */
export async function unpackArchive(archive: Buffer, target: string, label: string): Promise<void> {
  const refuse = (why: string): never => {
    throw new MockError('MOCK_ERR_SCENARIO_ARCHIVE', `${label}: ${why}; the archive is refused and nothing was unpacked`);
  };
  if (archive.length > LIMITS.maxArchiveBytes) refuse(`the archive is ${archive.length} bytes, over the cap of ${LIMITS.maxArchiveBytes}`);
  let raw = archive;
  if (archive[0] === 0x1f && archive[1] === 0x8b) {
    try {
      raw = gunzipSync(archive, { maxOutputLength: LIMITS.maxBytes + 1024 * 1024 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') refuse(`it unpacks to more than ${LIMITS.maxBytes} bytes`);
      refuse(`it is not a valid gzip stream (${(error as Error).message})`);
    }
  }
  const problems: string[] = [];
  let files = 0;
  let bytes = 0;
  await pipeline(
    Readable.from([raw]),
    tar.t({
      strict: true,
      onReadEntry: (entry) => {
        const name = entry.path;
        const why = entryProblem(name, entry.type);
        if (why) problems.push(`${JSON.stringify(name)} ${why}`);
        files += 1;
        bytes += entry.size ?? 0;
        entry.resume();
      },
    }),
  ).catch((error: Error) => refuse(`it is not a valid tar archive (${error.message})`));
  if (problems.length > 0) refuse(problems[0]);
  if (files > LIMITS.maxFiles) refuse(`it holds ${files} entries, over the cap of ${LIMITS.maxFiles}`);
  if (bytes > LIMITS.maxBytes) refuse(`its files add up to ${bytes} bytes, over the cap of ${LIMITS.maxBytes}`);
  mkdirSync(target, { recursive: true });
  // checked above; the filter keeps node-tar to the same rules should the two readings ever differ
  await pipeline(Readable.from([raw]), tar.x({ cwd: target, strict: true, preservePaths: false, filter: (name, entry) => entryProblem(name, (entry as tar.ReadEntry).type) === undefined }));
}

/** Why an entry may not be unpacked, or undefined. */
function entryProblem(name: string, type: string): string | undefined {
  if (!ALLOWED.has(type)) return `is a ${type} entry (only files and folders may be unpacked: no links, devices or FIFOs)`;
  if (path.posix.isAbsolute(name) || path.win32.isAbsolute(name) || /^[a-zA-Z]:/.test(name)) return 'is an absolute path';
  if (name.split(/[\\/]/).includes('..')) return "leads out of the scenario's folder (..)";
  return undefined;
}
