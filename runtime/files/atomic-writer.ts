import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Atomic saves (write-file-atomic: a temp file beside the target, fsync, rename) that leave
 * nothing behind even when the process is killed mid-save: each temp file is recorded in a journal
 * outside the project (`$XDG_CACHE_HOME/mock/saves/<project>/<pid>.jsonl`) as it is created, and
 * the next server started on the project deletes the temp files of journals whose process is gone.
 */
export class AtomicWriter {
  private readonly dir: string;
  private readonly journal: string;
  /** Real path: temp files are made beside the real target. */
  private readonly root: string;
  private inFlight = 0;

  constructor(projectDir: string, cacheDir: string = defaultCacheDir()) {
    this.root = realOrSelf(path.resolve(projectDir));
    this.dir = path.join(cacheDir, 'mock', 'saves', createHash('sha256').update(this.root).digest('hex').slice(0, 16));
    this.journal = path.join(this.dir, `${process.pid}.jsonl`);
  }

  async write(file: string, content: string): Promise<void> {
    this.inFlight++;
    try {
      await writeFileAtomic(file, content, { encoding: 'utf8', tmpfileCreated: (temp: string) => this.record(temp) });
    } finally {
      // nothing in flight: every recorded temp file is renamed or removed
      if (--this.inFlight === 0) rmSync(this.journal, { force: true });
    }
  }

  /** Deletes the temp files that saves of processes no longer running left in the project; returns their paths. */
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
      if (!name.endsWith('.jsonl') || (pid !== process.pid && running(pid))) continue;
      const file = path.join(this.dir, name);
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const temp = parse(line);
        if (temp === undefined || !isTempIn(this.root, temp)) continue;
        try {
          rmSync(temp);
          removed.push(temp);
        } catch {
          // renamed into place before the process died: nothing to clean
        }
      }
      rmSync(file, { force: true });
    }
    return removed;
  }

  private record(temp: string): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      appendFileSync(this.journal, `${JSON.stringify(temp)}\n`);
    } catch {
      // an unwritable cache costs only the cleanup after a crash, never the save
    }
  }
}

function defaultCacheDir(): string {
  return process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

function running(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
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

/** A journal is only trusted to name write-file-atomic's temp files (`<file>.<number>`) inside the project. */
function isTempIn(root: string, temp: string): boolean {
  const relative = path.relative(root, temp);
  return path.isAbsolute(temp) && !relative.startsWith('..') && !path.isAbsolute(relative) && /\.\d+$/.test(temp);
}
