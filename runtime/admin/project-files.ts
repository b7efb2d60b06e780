import { realpathSync } from 'node:fs';
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

/** The real path of `target`, or of its nearest existing ancestor joined with the rest. */
function realExisting(target: string): string {
  let current = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return target;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}
