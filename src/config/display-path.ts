import path from 'node:path';

/** How a file is named in messages: relative to cwd when it lies below it, absolute otherwise. */
export function displayPath(file: string, cwd: string = process.cwd()): string {
  const relative = path.relative(cwd, file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
