import type { BuildProgress } from '../../compiler/index.js';

/** A build quicker than this shows nothing: progress is for the builds a user waits on. */
const QUIET_MS = 1000;

export interface ProgressLine {
  report: BuildProgress;
  /** Clears the line, if one was drawn. */
  done(): void;
}

/**
 * Build progress on one rewritten line of a terminal (stage, operation counts, elapsed time),
 * drawn once the build has taken a second; nothing at all when the stream is not a TTY (piped
 * output and CI logs stay as they were).
 */
export function progressLine(stream: NodeJS.WriteStream, label: string, now: () => number = () => performance.now()): ProgressLine | undefined {
  if (stream.isTTY !== true) return undefined;
  const started = now();
  let drawn = false;
  return {
    report(stage, done, total) {
      const elapsed = now() - started;
      if (elapsed < QUIET_MS) return;
      const counts = total === undefined ? '' : ` ${done ?? 0}/${total} operations`;
      stream.write(`\r\x1b[K${label}: ${stage}${counts} (${(elapsed / 1000).toFixed(1)} s)`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}
