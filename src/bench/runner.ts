// Runs the rounds of a load test: each round runs every target (at most --max-concurrency at a
// time), each target split into one task per worker on a piscina pool. Handles --rounds,
// --repeat-until, SIGINT (first: stop and report what was measured; second: exit at once) and
// the live progress line.
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { compiledModule } from '../../common/package-root.js';
import type { Task, WorkerResult } from './protocol.js';
import { SharedState } from './shared-state.js';

export interface TargetJob {
  /** The target URL, as reports name it. */
  name: string;
  /** Workers (tasks) this target is split into. */
  workers: number;
  task(worker: number, workers: number, shared: SharedArrayBuffer, durationMs: number): Task;
}

export interface RoundsSettings {
  durationMs: number;
  /** Rounds to run; default 1, or as many as fit before untilMs. */
  rounds?: number;
  /** --repeat-until <instant>: rounds go on until this epoch time (the last one is shortened to fit). */
  untilMs?: number;
  /** --repeat-until <duration>: the same, counted from the start of the first round. */
  repeatForMs?: number;
  maxConcurrency: number;
  /** Progress line on stderr (a TTY, no --json). */
  progress?: { label: string; unit: string };
}

export interface TargetRound {
  job: TargetJob;
  results: WorkerResult[];
}

export interface RoundOutcome {
  round: number;
  startedAt: string;
  durationMs: number;
  targets: TargetRound[];
}

/** Threads for `workers` per target with up to `parallelTargets` targets at once. */
export function createPool(workers: number, parallelTargets: number): Piscina<Task, WorkerResult> {
  return new Piscina<Task, WorkerResult>({
    filename: pathToFileURL(compiledModule('src/bench/worker/index.js')).href,
    minThreads: workers,
    maxThreads: workers,
    // a task runs for the whole round and is I/O-bound: one thread carries several targets
    concurrentTasksPerWorker: Math.max(1, parallelTargets),
    idleTimeout: 60_000,
    atomics: 'disabled',
  });
}

export async function runRounds(
  pool: Piscina<Task, WorkerResult>,
  jobs: TargetJob[],
  settings: RoundsSettings,
): Promise<{ rounds: RoundOutcome[]; interrupted: boolean }> {
  const active = new Set<SharedState>();
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) {
      process.stderr.write('\nmock: interrupted twice, exiting without a report\n');
      process.exit(130);
    }
    interrupted = true;
    if (settings.progress) process.stderr.write('\nmock: interrupted, stopping (press Ctrl-C again to exit at once)\n');
    for (const state of active) state.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const rounds: RoundOutcome[] = [];
  const progress = settings.progress ? new ProgressLine(settings.progress.label, settings.progress.unit, active) : null;
  try {
    const untilMs = settings.untilMs ?? (settings.repeatForMs === undefined ? undefined : Date.now() + settings.repeatForMs);
    const maxRounds = settings.rounds ?? (untilMs === undefined ? 1 : Infinity);
    for (let round = 1; round <= maxRounds && !interrupted; round++) {
      let durationMs = settings.durationMs;
      if (untilMs !== undefined) {
        const remaining = untilMs - Date.now();
        if (round > 1 && remaining < 100) break;
        durationMs = Math.max(100, Math.min(durationMs, remaining));
      }
      const startedAt = new Date().toISOString();
      progress?.round(round, Number.isFinite(maxRounds) ? maxRounds : undefined, durationMs);
      const targets = await mapLimit(jobs, settings.maxConcurrency, async (job) => {
        const state = SharedState.create(job.workers);
        active.add(state);
        if (interrupted) state.stop();
        try {
          const tasks = Array.from({ length: job.workers }, (_, w) => job.task(w, job.workers, state.buffer, durationMs));
          return { job, results: await Promise.all(tasks.map((task) => pool.run(task))) };
        } finally {
          active.delete(state);
        }
      });
      rounds.push({ round, startedAt, durationMs, targets });
    }
  } finally {
    progress?.end();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return { rounds, interrupted };
}

/** Runs `fn` over `items`, at most `limit` at a time; results in input order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** One line on stderr, rewritten four times a second. */
class ProgressLine {
  private timer: NodeJS.Timeout | null = null;
  private durationMs = 0;
  private roundText = '';
  private lastCount = 0;
  private lastAt = 0;

  constructor(
    private readonly label: string,
    private readonly unit: string,
    private readonly states: Set<SharedState>,
  ) {}

  round(round: number, of: number | undefined, durationMs: number): void {
    this.lastAt = performance.now();
    this.durationMs = durationMs;
    this.roundText = of === 1 ? '' : `round ${round}${of === undefined ? '' : `/${of}`}  `;
    this.lastCount = 0;
    this.timer ??= setInterval(() => this.draw(), 250);
    this.timer.unref();
  }

  end(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    process.stderr.write('\r\x1b[K');
  }

  private draw(): void {
    let responses = 0;
    let errors = 0;
    let active = 0;
    let elapsedMs = 0;
    for (const state of this.states) {
      const counts = state.read();
      responses += counts.responses;
      errors += counts.errors;
      active += counts.active;
      elapsedMs = Math.max(elapsedMs, counts.elapsedMs);
    }
    const now = performance.now();
    if (responses < this.lastCount) this.lastCount = 0;
    const rate = now > this.lastAt ? ((responses - this.lastCount) * 1000) / (now - this.lastAt) : 0;
    this.lastCount = responses;
    this.lastAt = now;
    const elapsed = Math.min(this.durationMs, elapsedMs) / 1000;
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    const line = `${this.label}  ${this.roundText}${elapsed.toFixed(1)}s/${(this.durationMs / 1000).toFixed(0)}s  ${this.unit} ${active}  ${fmt(responses)} responses  ${fmt(rate)} req/s  ${fmt(errors)} errors`;
    process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns || 120) - 1)}`);
  }
}
