/**
 * One worker of `mock serve --workers` (a node:cluster worker; see primary.ts): it takes what to
 * serve as its first message and serves it on the ports every worker shares, keeping its state
 * with the primary (or in Redis), until SIGTERM (which the primary sends to every worker to stop).
 */
import path from 'node:path';
import { isMockError } from '../../../common/errors.js';
import type { ClusterQuestion, ClusterStores, RequestLogEntryJson, WorkerStatus } from '../../../runtime/index.js';
import type { ResolvedConfig } from '../../config/index.js';
import { keepServing } from '../keep-serving.js';
import { startLines } from '../start-lines.js';
import { startServing, type Serving } from '../start-serving.js';
import { sizeYoungGeneration } from '../young-generation.js';
import type { FromServeWorker, ServeMessage, ToServeWorker } from './messages.js';

const send = process.send?.bind(process) as ((message: FromServeWorker) => boolean) | undefined;
if (send === undefined) throw new Error('serve-worker.js runs as a worker of mock serve --workers');

/** How often the worker tells the primary how many requests it answered (GET /__mock/health). */
const HEARTBEAT_MS = 1000;

let stores: ClusterStores | undefined;
let serving: Serving | undefined;
let stopping = false;
const asked = new Map<number, (answer: never) => void>();
let nextQuestion = 0;

/** Sends a question to the primary; settles with its reply. */
function ask<T>(message: (id: number) => FromServeWorker): Promise<T> {
  return new Promise((resolve) => {
    const id = ++nextQuestion;
    asked.set(id, resolve as (answer: never) => void);
    send?.(message(id));
  });
}

// only the primary answers Ctrl-C: it stops every worker in turn (a second signal here would end this one mid-answer)
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => void stop());
// the primary is gone: nothing would restart or stop this worker any more
process.on('disconnect', () => void stop());

process.on('message', (message: ToServeWorker) => {
  switch (message.kind) {
    case 'mock-serve':
      void serve(message);
      return;
    case 'mock-workers-reply':
      asked.get(message.id)?.(message.workers as never);
      asked.delete(message.id);
      return;
    case 'mock-gather-reply':
      asked.get(message.id)?.(message.answers as never);
      asked.delete(message.id);
      return;
    case 'mock-forward':
      forward(message.perSecond ?? Infinity);
      return;
    case 'mock-entries':
      for (const entry of message.entries) serving?.running.requestLog.offer(entry);
      return;
    case 'mock-question': {
      // a worker still starting has nothing to show yet
      const { id } = message;
      Promise.resolve(serving?.running.answer(message.question) ?? null).then(
        (answer) => send?.({ kind: 'mock-answer', id, answer }),
        () => send?.({ kind: 'mock-answer', id, answer: null }),
      );
      return;
    }
    default:
      stores?.receive(message);
  }
});

send({ kind: 'mock-listening' });

/** A log file of its own past the first worker (`mock.log` → `mock-worker-2.log`): one rotating file has one writer. */
function ownLogFile(resolved: ResolvedConfig, worker: number): ResolvedConfig {
  const { file } = resolved.config.logging;
  if (worker === 1 || file === 'stdout' || file === 'stderr') return resolved;
  const { dir, name, ext } = path.parse(file);
  return { ...resolved, config: { ...resolved.config, logging: { ...resolved.config.logging, file: path.join(dir, `${name}-worker-${worker}${ext}`) } } };
}

async function serve({ worker, resolved: given, allowRefs, first, sharedKey, graphqlSeed }: ServeMessage): Promise<void> {
  const resolved = ownLogFile(given, worker);
  try {
    const runtime = await import('../../../runtime/index.js');
    runtime.sharePorts();
    if (resolved.config.state.store === 'memory') stores = new runtime.ClusterStores((message) => send?.(message));
    const workers = (): Promise<WorkerStatus[]> => ask((id) => ({ kind: 'mock-workers', id }));
    const gather = (question: ClusterQuestion): Promise<unknown[]> => ask((id) => ({ kind: 'mock-gather', id, question }));
    serving = await startServing(resolved, {
      allowRefs,
      stores,
      sharedKey: Buffer.from(sharedKey, 'base64'),
      sharedGraphqlSeed: graphqlSeed,
      soleServers: first,
      say: (line) => process.stdout.write(`${line}\n`),
      // with state in Redis every worker reads a change from there: the one that wrote it holds it
      cluster: { worker, workers, gather, applied: (fewest) => (stores === undefined ? 1 : fewest) },
    });
    keepServing(serving.logger);
    const { running } = serving;
    sizeYoungGeneration(running);
    // this worker's live streams show every worker's requests: while they have a client, the others forward theirs
    running.requestLog.onDemand((perSecond) => send?.({ kind: 'mock-follow', perSecond: perSecond === Infinity ? null : perSecond }));
    send?.({ kind: 'mock-ready', lines: startLines(running, resolved, runtime.httpUrl) });
    setInterval(() => send?.({ kind: 'mock-heartbeat', requests: running.stats.totalRequests }), HEARTBEAT_MS).unref();
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    send?.({ kind: 'mock-failed', message: error.message, ...(isMockError(e) ? { code: e.code, exitCode: e.exitCode } : {}) });
    process.exit(1);
  }
}

/** How long a worker gathers its entries before it sends them on: one message per batch, not per request. */
const FORWARD_BATCH_MS = 50;
let batch: RequestLogEntryJson[] = [];

/**
 * Starts or stops sending this worker's request log entries to the primary, for the other workers'
 * live streams: at most `perSecond` a second (0: none), the first of each second, since the
 * clients listening take no more (the dashboards' budgets); an entry past it costs one comparison.
 */
function forward(perSecond: number): void {
  const log = serving?.running.requestLog;
  if (log === undefined) return;
  if (perSecond === 0) {
    log.tap(undefined);
    batch = [];
    return;
  }
  let second = 0;
  let sent = 0;
  log.tap((entry) => {
    if (entry.time - second >= 1000) {
      second = entry.time - (entry.time % 1000);
      sent = 0;
    }
    if (sent >= perSecond) return;
    sent++;
    if (batch.length === 0) setTimeout(() => send?.({ kind: 'mock-entries', entries: batch.splice(0) }), FORWARD_BATCH_MS);
    batch.push(entry.toJSON());
  });
}

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await serving?.close();
  // uWS has no way to close open keep-alive connections, which would hold the process until they idle out
  process.exit(0);
}
