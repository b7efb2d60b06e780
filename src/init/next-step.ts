import { accessSync, constants, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { packageFile } from '../../common/package-root.js';

/**
 * The command that serves the new project, as the user can run it from `runsIn` (the project's
 * folder): `npx <this package> serve` when npx ran this one (npm sets npm_command=exec, or the
 * script lies in npx's `_npx` cache, whose long path means nothing to a user); `mock serve` when
 * the `mock` on the PATH is this installation (npm link, a global install); else `node <this
 * bin/run.js, relative to runsIn> serve`, since a clone set up with `npm install` has no `mock` on
 * the PATH. Under another npm command (npm run: `npm_command` is set) the PATH is npm's, not the
 * shell's.
 */
export function serveCommand(script: string, env: Readonly<Record<string, string | undefined>>, runsIn: string): string {
  const self = realpath(script);
  if (env.npm_command === 'exec' || [script, self].some((file) => path.resolve(file).split(path.sep).includes('_npx'))) return `npx ${packageName()} serve`;
  const dirs = env.npm_command === undefined ? (env.PATH ?? '').split(path.delimiter) : [];
  const onPath = dirs.some((dir) => dir !== '' && isExecutable(path.join(dir, 'mock')) && realpath(path.join(dir, 'mock')) === self);
  if (onPath) return 'mock serve';
  const relative = path.relative(realpath(runsIn), self);
  return `node ${shellWord(relative.length < self.length ? relative : self)} serve`;
}

/** This package's name, as npx finds it on the registry. */
function packageName(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { name: string }).name;
}

/** Quotes a path for a POSIX shell when it needs it. */
export const shellWord = (word: string): string => (/^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function realpath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}
