import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { AdminError } from './envelope.js';

const TRAVERSAL = 'Path traversal detected';

/**
 * Resolves a path given to the admin API inside `root`, or refuses it: `..` segments (also
 * percent-encoded, once or twice), absolute paths outside the root, NUL bytes, and symlinks whose
 * target lies outside the root. The path is used as given (a `%` in a name is a `%`).
 */
export function resolveInside(root: string, input: unknown, field: string): string {
  if (typeof input !== 'string' || input.trim() === '') throw new AdminError(400, `${field} must be a non-empty path relative to the project directory`);
  if (input.includes('\0')) throw new AdminError(400, `${TRAVERSAL}: ${field} contains a NUL byte`);
  for (const form of decodedForms(input)) {
    if (form.split(/[\\/]+/).includes('..')) throw new AdminError(400, `${TRAVERSAL}: ${field} "${input}" climbs out with ".." (give a path inside ${root})`);
  }
  const realRoot = realpathSync(root);
  const resolved = path.resolve(realRoot, input);
  if (!inside(realRoot, resolved)) throw new AdminError(400, `${TRAVERSAL}: ${field} "${input}" is outside the project directory ${realRoot}`);
  const real = realExisting(resolved);
  if (!inside(realRoot, real)) throw new AdminError(400, `${TRAVERSAL}: ${field} "${input}" leads through a symlink to ${real}, outside the project directory`);
  return resolved;
}

function decodedForms(input: string): string[] {
  const forms = [input];
  let current = input;
  for (let i = 0; i < 3 && current.includes('%'); i++) {
    try {
      const next = decodeURIComponent(current);
      if (next === current) break;
      forms.push(next);
      current = next;
    } catch {
      break;
    }
  }
  return forms;
}

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Symlinks followed at most, as Linux does (a longer chain is a loop, refused as outside). */
const MAX_LINKS = 40;

/**
 * Where `target` really is: the real path of its nearest existing ancestor joined with the rest.
 * A dangling symlink on the way counts as where it points, so a link to a missing file outside the
 * root is refused like one to an existing file.
 */
export function realExisting(target: string, links = 0): string {
  if (links > MAX_LINKS) return path.parse(target).root;
  let current = target;
  const rest: string[] = [];
  for (;;) {
    const stat = lstatSafe(current);
    if (stat !== undefined) {
      let real: string;
      try {
        real = realpathSync(current);
      } catch {
        // a dangling link (or a loop): follow what it says
        real = stat.isSymbolicLink() ? realExisting(path.resolve(path.dirname(current), readlinkSync(current)), links + 1) : current;
      }
      return path.join(real, ...rest.reverse());
    }
    const parent = path.dirname(current);
    if (parent === current) return target;
    rest.push(path.basename(current));
    current = parent;
  }
}

function lstatSafe(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}
