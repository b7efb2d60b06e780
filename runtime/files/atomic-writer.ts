import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { processRunning } from '../../common/process-running.js';

/** Saves in flight per journal: every writer of one project in this process shares its journal. */
const inFlight = new Map<string, number>();

/**
 * Atomic saves (write-file-atomic: a temporary file beside the target, fsync, rename) that leave
 * nothing behind even when the process is killed mid-save. Before a save starts, its target is
 * recorded in a journal outside the project (`$XDG_CACHE_HOME/mock/saves/<project>/<pid>.jsonl`);
 * the next server started on the project removes, beside each target of a journal whose process
 * is gone, the files named as write-file-atomic names its temporary files (`<file>.<number>`).
 * Recording the target first leaves no moment in which a temporary file exists unrecorded.
 * Recordings written as they go (RecordingFile) keep their temporary file in the same journal.
 */
export class AtomicWriter {
  private readonly dir: string;
  private readonly journal: string;
  /** Real path: temporary files are made beside the real target. */
  private readonly root: string;

  constructor(projectDir: string, cacheDir: string = defaultCacheDir()) {
    this.root = realOrSelf(path.resolve(projectDir));
    this.dir = path.join(cacheDir, 'mock', 'saves', createHash('sha256').update(this.root).digest('hex').slice(0, 16));
    this.journal = path.join(this.dir, `${process.pid}.jsonl`);
  }

  async write(file: string, content: string): Promise<void> {
    this.begin(realOrSelf(file));
    try {
      await writeFileAtomic(file, content, { encoding: 'utf8' });
    } finally {
      this.done();
    }
  }

  /** A temporary file (`<target>.<number>`) is about to exist beside `target` (a real path): journaled first. */
  begin(target: string): void {
    inFlight.set(this.journal, (inFlight.get(this.journal) ?? 0) + 1);
    this.record(target);
  }

  /** A temporary file begun is renamed into place or removed. */
  done(): void {
    const left = (inFlight.get(this.journal) ?? 1) - 1;
    if (left > 0) {
      inFlight.set(this.journal, left);
      return;
    }
    // nothing in flight: every temporary file is renamed into place or removed
    inFlight.delete(this.journal);
    rmSync(this.journal, { force: true });
  }

  /** Removes the temporary files that saves of processes no longer running left in the project; returns their paths. */
  sweep(): string[] {
    const removed: string[] = [];
    let journals: string[];
    try {
      journals = readdirSync(this.dir);
    } catch {
      return removed;
    }
    for (const name of journals) {
      const pid = Number.parseInt(name, 10);
      if (!name.endsWith('.jsonl') || (pid !== process.pid && processRunning(pid))) continue;
      const journal = path.join(this.dir, name);
      const targets = new Set(readFileSync(journal, 'utf8').split('\n').map(parse));
      for (const target of targets) if (target !== undefined && isInside(this.root, target)) removed.push(...removeTemporaries(target));
      rmSync(journal, { force: true });
    }
    return removed;
  }

  private record(target: string): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      appendFileSync(this.journal, `${JSON.stringify(target)}\n`);
    } catch {
      // an unwritable cache costs only the cleanup after a crash, never the save
    }
  }
}

/** write-file-atomic names a temporary file `<target>.<unsigned 32-bit number>`. */
function removeTemporaries(target: string): string[] {
  const dir = path.dirname(target);
  const prefix = `${path.basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d{1,10}$/.test(name.slice(prefix.length))) continue;
    const temporary = path.join(dir, name);
    rmSync(temporary, { force: true });
    removed.push(temporary);
  }
  return removed;
}

function defaultCacheDir(): string {
  return process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function parse(line: string): string | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A journal is trusted only with targets inside the project. */
function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return path.isAbsolute(file) && relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
