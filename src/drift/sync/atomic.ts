import { randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * A hidden temporary file beside `target`, keeping its extension (the description's kind is
 * read from it): same folder, so the rename over the target is atomic.
 */
export function temporaryBeside(target: string): string {
  const extension = path.extname(target);
  return path.join(path.dirname(target), `.${path.basename(target, extension)}.sync-${process.pid}-${randomBytes(4).toString('hex')}${extension}`);
}
