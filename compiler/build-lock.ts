import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../common/errors.js';
import { processRunning } from '../common/process-running.js';

const POLL_MS = 50;
/** Longer than any build writes its files (the corpus's largest: under a second here). */
const WAIT_MS = 120_000;

/**
 * Runs `write` while this process alone writes the build folder `dir`: two `mock build` or `mock
 * serve` of one project at once would otherwise interleave their files, and the second would find
 * the first's build half written (files without their manifest.json) and refuse the folder. The
 * lock is a file `<dir>.lock` beside the folder holding the writer's pid, made exclusively; a lock
 * whose process is gone (killed mid-write) is taken over. Compiling needs no lock: only writing.
 */
export async function whileWriting<T>(dir: string, write: () => T): Promise<T> {
  const lock = `${dir}.lock`;
  mkdirSync(path.dirname(dir), { recursive: true });
  const until = Date.now() + WAIT_MS;
  for (;;) {
    if (take(lock)) break;
    const holder = holderOf(lock);
    if (holder !== undefined && !processRunning(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > until) {
      throw new MockError(
        'MOCK_ERR_BUILD_LOCKED',
        `${dir} is being written by another mock build or serve (pid ${holder ?? 'unknown'}, lock ${lock}) for over ${WAIT_MS / 1000} s; stop it, or remove ${lock} if no mock runs on this project`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return write();
  } finally {
    rmSync(lock, { force: true });
  }
}

function take(lock: string): boolean {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** The pid in the lock; undefined while its writer has made it but not yet written it. */
function holderOf(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(lock, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
