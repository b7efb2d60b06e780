import type { Logger } from 'pino';
import { AtomicWriter } from '../files/index.js';

/** The writer of the admin API's saves, after removing what saves interrupted by a crash left in the project. */
export function projectWriter(projectDir: string, logger: Logger): AtomicWriter {
  const writer = new AtomicWriter(projectDir);
  const removed = writer.sweep();
  if (removed.length > 0) logger.info({ files: removed }, `removed ${removed.length} temporary file(s) left by an interrupted save`);
  return writer;
}
