import { realpathSync } from 'node:fs';
import path from 'node:path';

/** Whether `file` is `folder` or lies beneath it (both absolute, compared as written). */
export function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * Where a path really leads: its longest existing prefix with symbolic links resolved, then the
 * rest as written. A folder about to be created counts where its existing parent really is.
 */
export function realPathOf(file: string): string {
  const absolute = path.resolve(file);
  const rest: string[] = [];
  for (let current = absolute; ; current = path.dirname(current)) {
    try {
      return path.join(realpathSync(current), ...rest);
    } catch {
      if (path.dirname(current) === current) return absolute;
      rest.unshift(path.basename(current));
    }
  }
}
