import { accessSync, constants, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * The command that serves the new project, as the user's shell can run it: `mock serve` when the
 * `mock` on the PATH is this installation (npm link, a global install), else `node <this
 * bin/run.js> serve`, since a clone set up with `npm install` has no `mock` on the PATH. Under
 * npm (`npx mock-compiler`, npm run: `npm_command` is set) the PATH is npm's, not the shell's.
 */
export function serveCommand(script: string, env: Readonly<Record<string, string | undefined>>): string {
  const self = realpath(script);
  const dirs = env.npm_command === undefined ? (env.PATH ?? '').split(path.delimiter) : [];
  const onPath = dirs.some((dir) => dir !== '' && isExecutable(path.join(dir, 'mock')) && realpath(path.join(dir, 'mock')) === self);
  return onPath ? 'mock serve' : `node ${shellWord(self)} serve`;
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
