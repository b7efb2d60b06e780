import { mkdirSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Writes a file whole or not at all (write-file-atomic: a temporary file beside it, fsync, rename),
 * creating its folder: a reader never sees half a report, and a failure leaves the old file as it was.
 */
export function writeWhole(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic.sync(file, text);
}
