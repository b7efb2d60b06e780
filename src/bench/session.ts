// What the three load commands share once their requests are ready: the pool, the rounds, the
// report (JSON with --json / --output, text otherwise), and the verdict of --max-error-rate.
import type { StreamCheck } from '../conformance/stream-check.js';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import { writeWhole } from '../../common/write-whole.js';
import { answerTable, operationTable, statsLines, streamTable, summaryOf, TargetTotals, type AnswerCheck, type ItemCheck, type OperationInfo, type Stats, type TargetReport } from './report.js';
import { createPool, runRounds, type TargetJob } from './runner.js';
import { isInstant, parseDuration, parseUntil } from './units.js';

export interface SessionOptions {
  command: 'bench' | 'bench-chunked' | 'bench-pipeline';
  /** Streamed answers checked before the load, reported as they are. */
  streams?: LoadReport['streams'];
  /** Validates the items sampled from streamed answers under load. */
  checkItem?: ItemCheck;
  /** Validates the plain answers sampled under load. */
  checkAnswer?: AnswerCheck;
  durationMs: number;
  rounds?: number;
  untilMs?: number;
  repeatForMs?: number;
  keepRounds: boolean;
  maxConcurrency: number;
  workers: number;
  json: boolean;
  /** Absolute path of the JSON report, if any. */
  output?: string;
  maxErrorRate?: number;
  /** Per-operation breakdown in the report (mock bench). */
  operations: OperationInfo[];
  withOperations: boolean;
  /** Settings echoed in the report. */
  settings: Record<string, unknown>;
  /** Word for the concurrent units in the progress line. */
  unit: string;
}

export interface RoundReport {
  round: number;
  startedAt: string;
  durationSeconds: number;
  targets: TargetReport[];
}

export interface LoadReport {
  command: SessionOptions['command'];
  startedAt: string;
  finishedAt: string;
  interrupted: boolean;
  settings: Record<string, unknown>;
  summary: Stats;
  targets: TargetReport[];
  rounds?: RoundReport[];
  maxErrorRate?: number;
  passed: boolean;
  /** `mock bench`: one answer of each streamed operation per target, read item by item before the load (docs/streaming.md). */
  streams?: Array<StreamCheck & { target: string }>;
}

/** Default workers: half the cores (the target often runs on the same machine), at least 1, at most one per slot. */
export function defaultWorkers(slots: number): number {
  return Math.max(1, Math.min(slots, Math.floor(availableParallelism() / 2)));
}

/** Flags every load command has, checked. */
export interface CommonLoadFlags {
  duration: string;
  rounds?: number;
  'repeat-until'?: string;
  'keep-rounds'?: boolean;
  workers?: number;
  json?: boolean;
  output?: string;
  timeout?: string;
}

export function commonOptions(flags: CommonLoadFlags, cwd: string, now = Date.now()) {
  const durationMs = parseDuration(flags.duration, '--duration');
  const until = flags['repeat-until'];
  // an instant is absolute; a duration counts from the start of the first round (after set-up)
  const untilMs = until !== undefined && isInstant(until) ? parseUntil(until, now) : undefined;
  const repeatForMs = until !== undefined && !isInstant(until) ? parseUntil(until, now) - now : undefined;
  if (untilMs !== undefined && untilMs <= now) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--repeat-until: ${flags['repeat-until']} is already past (give a later time, or a duration such as 10m)`);
  }
  if (flags.output !== undefined && flags.output.trim() === '') throw new MockError('MOCK_ERR_FLAG_INVALID', '--output: empty file name (pass a file path for the JSON report)');
  return {
    durationMs,
    untilMs,
    repeatForMs,
    rounds: flags.rounds,
    keepRounds: flags['keep-rounds'] ?? false,
    json: flags.json ?? false,
    output: flags.output === undefined ? undefined : path.resolve(cwd, flags.output),
    timeoutMs: parseDuration(flags.timeout ?? '30s', '--timeout'),
  };
}

export function parseRate(text: string | undefined, flag: string): number {
  if (text === undefined) return 0;
  const value = Number(text);
  if (!(value > 0) || !Number.isFinite(value)) throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: expected a number above zero, got ${JSON.stringify(text)}`);
  return value;
}

export function parseErrorRate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.trim().endsWith('%') ? Number(text.trim().slice(0, -1)) / 100 : text);
  if (!(value >= 0 && value <= 1) || text.trim() === '') {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--max-error-rate: expected a fraction from 0 to 1 (e.g. 0.01 for 1%), got ${JSON.stringify(text)}`);
  }
  return value;
}

/** Runs the jobs for the rounds, writes the report where asked, and returns it. */
export async function runSession(jobs: TargetJob[], options: SessionOptions): Promise<LoadReport> {
  const startedAt = new Date().toISOString();
  const parallel = Math.max(1, Math.min(options.maxConcurrency, jobs.length));
  const pool = createPool(options.workers, parallel);
  const showProgress = process.stderr.isTTY === true && !options.json;
  let outcome;
  try {
    outcome = await runRounds(pool, jobs, {
      durationMs: options.durationMs,
      rounds: options.rounds,
      untilMs: options.untilMs,
      repeatForMs: options.repeatForMs,
      maxConcurrency: options.maxConcurrency,
      progress: showProgress ? { label: `mock ${options.command}`, unit: options.unit } : undefined,
    });
  } finally {
    await pool.destroy();
  }

  const totals = jobs.map((job) => new TargetTotals(job.name, options.operations, options.checkItem, options.checkAnswer));
  const rounds: RoundReport[] = [];
  for (const round of outcome.rounds) {
    const perRound = options.keepRounds ? jobs.map((job) => new TargetTotals(job.name, options.operations, options.checkItem, options.checkAnswer)) : [];
    round.targets.forEach((target, i) => {
      totals[i].add(target.results);
      perRound[i]?.add(target.results);
    });
    if (options.keepRounds) {
      rounds.push({
        round: round.round,
        startedAt: round.startedAt,
        durationSeconds: Math.max(...perRound.map((t) => t.seconds)),
        targets: perRound.map((t) => t.report(options.withOperations)),
      });
    }
  }
  const targets = totals.map((t) => t.report(options.withOperations));
  const passed = options.maxErrorRate === undefined || targets.every((t) => t.errorRate <= (options.maxErrorRate as number));
  const report: LoadReport = {
    command: options.command,
    startedAt,
    finishedAt: new Date().toISOString(),
    interrupted: outcome.interrupted,
    settings: options.settings,
    summary: summaryOf(totals),
    targets,
    ...(options.keepRounds ? { rounds } : {}),
    ...(options.maxErrorRate !== undefined ? { maxErrorRate: options.maxErrorRate } : {}),
    passed,
    ...(options.streams !== undefined ? { streams: options.streams } : {}),
  };
  if (options.output) writeWhole(options.output, `${JSON.stringify(report, null, 2)}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(`${reportText(report).join('\n')}\n`);
  return report;
}

function streamLine(s: NonNullable<LoadReport['streams']>[number]): string {
  const where = `  ${s.operation}${s.target === '' ? '' : ` on ${s.target}`}: `;
  if (s.error !== undefined) return `${where}no answer (${s.error})`;
  const first = s.firstItemMs === null ? 'no complete item' : `first item after ${s.firstItemMs} ms`;
  return `${where}${s.status} ${s.contentType ?? ''}, ${s.items} item(s) read, ${first}, ${s.mismatch === undefined ? 'every item fits the item schema' : `MISMATCH ${s.mismatch}`}`;
}

/** The text report: a block per target, the operations of each, the verdict. */
export function reportText(report: LoadReport): string[] {
  const lines: string[] = [];
  const s = report.settings;
  const head = [s.scenario, s.vus !== undefined ? `${s.vus} VUs` : undefined, s.concurrency !== undefined ? `concurrency ${s.concurrency}` : undefined]
    .concat(s.connections !== undefined ? [`${s.connections} connections × depth ${s.pipelineDepth}`] : [])
    .filter(Boolean)
    .join(', ');
  lines.push(`mock ${report.command}${head ? ` (${head})` : ''}${report.interrupted ? ' — interrupted' : ''}`);
  for (const target of report.targets) {
    const roundsText = target.rounds === 1 ? '' : `, ${target.rounds} rounds`;
    lines.push('', `${target.target}  (${target.durationSeconds.toFixed(1)} s${roundsText}, ${target.connections.toLocaleString('en-US')} connections)`);
    lines.push(...statsLines(target));
    if (target.operations && target.operations.length > 0) lines.push('', ...operationTable(target.operations));
    const streamed = target.operations ? streamTable(target.operations) : [];
    if (streamed.length > 0) lines.push('', ...streamed);
    const sampled = target.operations ? answerTable(target.operations) : [];
    if (sampled.length > 0) lines.push('', ...sampled);
  }
  if (report.targets.length > 1) lines.push('', `all ${report.targets.length} targets`, ...statsLines(report.summary));
  if (report.streams !== undefined) lines.push('', 'streamed answers read before the load (one per operation, at most five items)', ...report.streams.map(streamLine));
  if (report.maxErrorRate !== undefined) {
    lines.push(
      '',
      report.passed
        ? `error rate within --max-error-rate ${report.maxErrorRate}`
        : `FAILED: error rate above --max-error-rate ${report.maxErrorRate}: ${report.targets
            .filter((t) => t.errorRate > (report.maxErrorRate as number))
            .map((t) => `${t.target} ${(t.errorRate * 100).toFixed(2)}%`)
            .join(', ')}`,
    );
  }
  return lines;
}
