// `mock bench`: a request plan from the description, sent by virtual users to each target.
import { AnswerValidator, checkStream, StreamItemValidator } from '../conformance/index.js';
import { MockError } from '../../common/errors.js';
import { writeWhole } from '../../common/write-whole.js';
import { buildPlan, parseHeaders, planLines, specSources, toWire, type Plan } from './plan.js';
import type { HttpTask } from './protocol.js';
import type { TargetJob } from './runner.js';
import type { Scenario } from './scenarios.js';
import { commonOptions, defaultWorkers, parseErrorRate, parseRate, runSession, type CommonLoadFlags, type LoadReport, type SessionOptions } from './session.js';
import type { Ir, IrOperation } from '../../compiler/index.js';
import { allowedRefs } from '../cli/allow-ref.js';
import { resolveTargets, type Target } from './targets.js';
import { locustfile, type ExportFormat } from './locust-export.js';

export interface BenchFlags extends CommonLoadFlags {
  spec?: string[];
  'spec-dir'?: string;
  'allow-ref'?: string[];
  target?: string;
  'targets-file'?: string;
  vus: number;
  scenario: Scenario;
  operations?: string;
  'base-path'?: string;
  auth?: string;
  headers?: string[];
  rps?: string;
  cps?: string;
  'max-error-rate'?: string;
  'generate-only'?: boolean;
  export?: ExportFormat;
  'max-concurrency': number;
  insecure?: boolean;
  seed?: number;
  /** --no-sample-answers turns it off. */
  'sample-answers'?: boolean;
}

/** Runs `mock bench` (not the conformance modes); returns the report, or undefined for --generate-only and --export. */
export async function runBench(flags: BenchFlags, cwd = process.cwd()): Promise<LoadReport | undefined> {
  const common = commonOptions(flags, cwd);
  const rps = parseRate(flags.rps, '--rps');
  const cps = parseRate(flags.cps, '--cps');
  const maxErrorRate = parseErrorRate(flags['max-error-rate']);
  const headers = parseHeaders(flags.headers ?? []);
  const wanted = (flags.operations ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const insecure = flags.insecure ?? false;
  const sampleAnswers = flags['sample-answers'] ?? true;
  // targets are checked before the description is loaded: a typo fails fast
  const offline = flags['generate-only'] || flags.export !== undefined;
  // an export is the same bytes for the same input: without --seed it uses a fixed one
  const seed = flags.export !== undefined ? (flags.seed ?? EXPORT_SEED) : flags.seed;
  const targets: Target[] | undefined =
    offline && flags.target === undefined && flags['targets-file'] === undefined
      ? undefined
      : resolveTargets(flags.target, flags['targets-file'], insecure, cwd);

  const plan = await buildPlan({
    specs: flags.spec ?? [],
    specDir: flags['spec-dir'],
    cwd,
    allowRefs: allowedRefs(flags['allow-ref'], cwd),
    basePath: flags['base-path'],
    operations: wanted,
    auth: flags.auth,
    headers,
    seed,
    ...(flags.export !== undefined ? { now: () => EXPORT_CLOCK } : {}),
  });

  if (flags.export !== undefined) {
    const text = locustfile(plan, {
      sources: specSources(flags.spec ?? [], flags['spec-dir'], cwd),
      scenario: flags.scenario,
      vus: flags.vus,
      durationMs: common.durationMs,
      seed: seed as number,
    });
    await writeText(text, common.output);
    return undefined;
  }

  if (flags['generate-only']) {
    await writePlan(plan, targets?.[0], common.output);
    return undefined;
  }
  if (!targets) throw new MockError('MOCK_ERR_FLAG_INVALID', 'no target: pass --target <url> or --targets-file <file>');

  // streams are read item by item once, as the load generator cannot: items checked, time to the first
  const streams: LoadReport['streams'] = [];
  for (const target of targets) {
    for (const { ir, op, request } of plan.streamed ?? []) streams.push({ target: target.url, ...(await checkStream(ir, op, target.url, request, common.timeoutMs)) });
  }

  const workers = flags.workers ?? defaultWorkers(flags.vus);
  const jobs: TargetJob[] = targets.map((target) => {
    const requests = toWire(plan, target);
    const used = Math.min(workers, flags.vus);
    return {
      name: target.url,
      workers: used,
      task: (worker, count, shared, durationMs): HttpTask => ({
        kind: 'http',
        worker,
        workers: count,
        endpoint: target.endpoint,
        durationMs,
        timeoutMs: common.timeoutMs,
        rps: rps / count,
        cps: cps / count,
        shared,
        vus: flags.vus,
        scenario: flags.scenario,
        requests,
        operations: plan.operations.length,
        streams: plan.streamed !== undefined,
        sampleAnswers,
      }),
    };
  });

  return runSession(jobs, {
    command: 'bench',
    durationMs: common.durationMs,
    rounds: common.rounds,
    untilMs: common.untilMs,
    repeatForMs: common.repeatForMs,
    keepRounds: common.keepRounds,
    maxConcurrency: flags['max-concurrency'],
    workers: Math.min(workers, flags.vus),
    json: common.json,
    output: common.output,
    maxErrorRate,
    operations: plan.operations,
    withOperations: true,
    unit: 'VUs',
    ...(streams.length > 0 ? { streams, checkItem: itemChecker(plan) } : {}),
    ...(sampleAnswers ? { checkAnswer: answerChecker(plan) } : {}),
    settings: {
      scenario: flags.scenario,
      vus: flags.vus,
      durationSeconds: common.durationMs / 1000,
      ...(rps ? { rps } : {}),
      ...(cps ? { cps } : {}),
      workers: Math.min(workers, flags.vus),
      operations: plan.operations.length,
      requestsInPlan: plan.requests.length,
      ...(common.rounds !== undefined ? { rounds: common.rounds } : {}),
      ...(flags['repeat-until'] !== undefined ? { repeatUntil: flags['repeat-until'] } : {}),
      ...(maxErrorRate !== undefined ? { maxErrorRate } : {}),
      ...(sampleAnswers ? {} : { sampleAnswers: false }),
    },
  });
}

/** Checks the items sampled under load against the item schema of their operation (conformance's validator). */
function itemChecker(plan: Plan): NonNullable<SessionOptions['checkItem']> {
  const validators = new Map<Ir, StreamItemValidator>();
  const byIndex = new Map<number, { validator: StreamItemValidator; op: IrOperation }>();
  for (const { ir, op, index } of plan.streamed ?? []) {
    if (!validators.has(ir)) validators.set(ir, new StreamItemValidator(ir));
    byIndex.set(index, { validator: validators.get(ir) as StreamItemValidator, op });
  }
  return (operation, status, contentType, item) => {
    const entry = byIndex.get(operation);
    return entry?.validator.check(entry.op, status, contentType, item);
  };
}

/** Checks the plain answers sampled under load against their operation's responses (conformance's response checker). */
function answerChecker(plan: Plan): NonNullable<SessionOptions['checkAnswer']> {
  const validators = new Map<Ir, AnswerValidator>();
  const byIndex = plan.described.map(({ ir, op }) => {
    if (!validators.has(ir)) validators.set(ir, new AnswerValidator(ir));
    return { validator: validators.get(ir) as AnswerValidator, op };
  });
  return (operation, answer) => {
    const entry = byIndex[operation];
    if (entry === undefined) return undefined;
    const found = entry.validator.check(entry.op, answer.status, answer.contentType, answer.body ?? undefined, answer.bodiless);
    return answer.body === null && found.bodyUnchecked !== undefined ? { bodyUnchecked: answer.unkept ?? 'body not kept' } : found;
  };
}

/** The seed of `--export` when --seed is not given. */
const EXPORT_SEED = 1;
/** The instant date-time values of `--export` are made at (2026-01-01T00:00:00Z): same input, same bytes. */
const EXPORT_CLOCK = Date.UTC(2026, 0, 1);

async function writePlan(plan: Plan, target: Target | undefined, output: string | undefined): Promise<void> {
  await writeText(planLines(plan, target), output);
}

async function writeText(text: string, output: string | undefined): Promise<void> {
  if (output) return writeWhole(output, text);
  await new Promise<void>((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
}
