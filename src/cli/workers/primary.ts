import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { MockError } from '../../../common/errors.js';
import { bundleEntry } from '../../../common/package-root.js';
import type { ClusterQuestion, StoreHost, WorkerStatus } from '../../../runtime/index.js';
import type { ResolvedConfig } from '../../config/index.js';
import { checkPortClash } from '../port-clash.js';
import { refuseUnsharedSigningKey } from '../serve-options.js';
import { refuseAiWithoutEndpoint } from '../../ai/refuse.js';
import { untilSignal } from '../until-signal.js';
import { withFreePorts } from './free-ports.js';
import type { FromServeWorker, ToServeWorker } from './messages.js';

/** A worker that stops this often within RESTART_WINDOW_MS is not started again: it would only stop again. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** Past the drain (server.shutdown_timeout_ms), how long a worker may take to exit before it is killed. */
const EXIT_GRACE_MS = 5000;
/** Longest the admin API waits for a worker's answer (its log, its counts): a worker stuck in a long task is left out rather than waited for. */
const GATHER_TIMEOUT_MS = 2000;

interface Slot {
  number: number;
  worker: Worker;
  startedAt: number;
  restarts: number;
  requests: number;
  /** When workers of this number stopped, within the last RESTART_WINDOW_MS. */
  stops: number[];
  /** Its servers listen. */
  ready: boolean;
}

export interface WorkersOptions {
  count: number;
  allowRefs: string[];
  logger: Logger;
  /** Where the start lines go (the command's output). */
  say: (line: string) => void;
}

/**
 * `mock serve --workers N`: this process (node:cluster's primary) starts N workers that serve the
 * same ports, and runs until SIGINT or SIGTERM, when it drains them all. The HTTP, GraphQL and
 * WebSocket servers on uWebSockets.js bind with SO_REUSEPORT, so the kernel spreads connections
 * over the workers; servers on node:http share a port through node:cluster. The first worker
 * starts alone (it brings the build up to date once for all), the others after it. A worker that
 * stops is started again, and said so; state.store memory is held here for every worker (StoreHost).
 */
export async function serveWithWorkers(given: ResolvedConfig, options: WorkersOptions): Promise<void> {
  const { count, logger } = options;
  checkPortClash(given);
  refuseUnsharedSigningKey(given);
  refuseAiWithoutEndpoint(given);
  const resolved = await withFreePorts(given);
  const { StoreHost } = await import('../../../runtime/index.js');
  const host: StoreHost | undefined = resolved.config.state.store === 'memory' ? new StoreHost((message) => logger.warn(message)) : undefined;
  const slots = new Map<number, Slot>();
  // a token one worker's admin API issued is valid on every worker (without JWT_SECRET each process would make its own key)
  const sharedKey = randomBytes(32).toString('base64');
  const graphqlSeed = randomBytes(4).readUInt32LE();
  let stopping = false;
  let exited: () => void = () => undefined;

  cluster.setupPrimary({ exec: bundleEntry('workers/serve-worker'), args: [] });

  /** Questions sent to every worker, by id: each takes the answers as they come. */
  const questions = new Map<number, (worker: number, answer: unknown) => void>();
  let nextQuestion = 0;
  /** Every worker's answer to a question, in the order of their numbers; one that dies or takes longer than GATHER_TIMEOUT_MS is left out. */
  const gather = (question: ClusterQuestion): Promise<unknown[]> =>
    new Promise((resolve) => {
      const id = ++nextQuestion;
      const asked = [...slots.values()].filter((slot) => slot.worker.isConnected());
      const answers = new Map<number, unknown>();
      const done = (): void => {
        clearTimeout(timer);
        questions.delete(id);
        resolve(
          [...answers]
            .sort(([a], [b]) => a - b)
            .map(([, answer]) => answer)
            .filter((answer) => answer !== null),
        );
      };
      const timer = setTimeout(done, GATHER_TIMEOUT_MS);
      questions.set(id, (worker, answer) => {
        answers.set(worker, answer);
        if (answers.size === asked.length) done();
      });
      for (const slot of asked) slot.worker.send({ kind: 'mock-question', id, question } satisfies ToServeWorker);
      if (asked.length === 0) done();
    });

  const statuses = (): WorkerStatus[] =>
    [...slots.values()].map((slot) => ({
      worker: slot.number,
      pid: slot.worker.process.pid ?? 0,
      state: slot.ready ? ('serving' as const) : ('starting' as const),
      started_at: new Date(slot.startedAt).toISOString(),
      restarts: slot.restarts,
      requests: slot.requests,
    }));

  /** The workers whose live streams have a client, and how many entries a second they take (Infinity: every one). */
  const followers = new Map<number, number>();
  /** What every worker forwards a second: as much as the most demanding follower takes. */
  const forwarding = (): number | null => {
    const most = Math.max(0, ...followers.values());
    return most === Infinity ? null : most;
  };
  const follow = (number: number, perSecond: number | null): void => {
    const before = forwarding();
    if (perSecond === 0) followers.delete(number);
    else followers.set(number, perSecond ?? Infinity);
    const now = forwarding();
    if (now === before) return;
    for (const slot of slots.values()) if (slot.worker.isConnected()) slot.worker.send({ kind: 'mock-forward', perSecond: now } satisfies ToServeWorker);
  };

  /** Starts worker `number`; settles once it serves, or with why it could not. */
  const start = (number: number, before?: Slot): Promise<string[]> => {
    const worker = cluster.fork({ MOCK_WORKER: String(number) });
    const slot: Slot = { number, worker, startedAt: Date.now(), restarts: before === undefined ? 0 : before.restarts + 1, requests: 0, stops: before?.stops ?? [], ready: false };
    slots.set(number, slot);
    const send = (message: ToServeWorker): void => {
      if (worker.isConnected()) worker.send(message);
    };
    host?.addWorker(worker.id, send);
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: FromServeWorker) => {
        switch (message.kind) {
          // a message sent before the worker listens would be lost: it says when it does
          case 'mock-listening':
            send({ kind: 'mock-serve', worker: number, resolved, allowRefs: options.allowRefs, first: number === 1, sharedKey, graphqlSeed });
            return;
          case 'mock-ready':
            ready = true;
            slot.ready = true;
            slot.startedAt = Date.now();
            if (followers.size > 0) send({ kind: 'mock-forward', perSecond: forwarding() });
            resolve(message.lines);
            return;
          case 'mock-failed':
            reject(message.code === undefined ? new Error(message.message) : new MockError(message.code, message.message, message.exitCode));
            return;
          case 'mock-heartbeat':
            slot.requests = message.requests;
            return;
          case 'mock-workers':
            send({ kind: 'mock-workers-reply', id: message.id, workers: statuses() });
            return;
          case 'mock-gather':
            void gather(message.question).then((answers) => send({ kind: 'mock-gather-reply', id: message.id, answers }));
            return;
          case 'mock-answer':
            questions.get(message.id)?.(number, message.answer);
            return;
          case 'mock-follow':
            follow(number, message.perSecond);
            return;
          case 'mock-entries':
            for (const [other, follower] of slots) if (other !== number && followers.has(other) && follower.worker.isConnected()) follower.worker.send(message);
            return;
          default:
            host?.receive(worker.id, message);
        }
      });
      worker.on('exit', (code, signal) => {
        host?.removeWorker(worker.id);
        if (slots.get(number) === slot) follow(number, 0);
        if (slots.get(number) !== slot) return;
        if (!ready) {
          slots.delete(number);
          reject(new Error(`worker ${number} stopped before it served (${signal ?? `exit code ${code}`})`));
        }
        if (stopping) {
          slots.delete(number);
          if (slots.size === 0) exited();
        } else if (ready) restart(slot, signal ?? `exit code ${code}`);
      });
    });
  };

  const restart = (slot: Slot, why: string): void => {
    const now = Date.now();
    slot.stops = [...slot.stops.filter((at) => now - at < RESTART_WINDOW_MS), now];
    if (slot.stops.length >= MAX_RESTARTS) {
      slots.delete(slot.number);
      logger.error(
        `worker ${slot.number} (pid ${slot.worker.process.pid}) stopped (${why}), ${MAX_RESTARTS} times within ${RESTART_WINDOW_MS / 1000} s: not started again; ${slots.size} worker(s) keep serving (see the errors above)`,
      );
      if (slots.size === 0) process.exit(1);
      return;
    }
    logger.warn(`worker ${slot.number} (pid ${slot.worker.process.pid}) stopped (${why}); starting another, the other workers keep serving`);
    start(slot.number, slot).then(
      () => logger.info(`worker ${slot.number} serves again (pid ${slots.get(slot.number)?.worker.process.pid})`),
      (e: unknown) => logger.error(`worker ${slot.number} could not start again: ${(e as Error).message}`),
    );
  };

  const stopAll = async (): Promise<void> => {
    stopping = true;
    if (slots.size === 0) return;
    const allExited = new Promise<void>((resolve) => (exited = resolve));
    // a signal, not a message: a worker still starting may not listen to messages yet
    for (const slot of slots.values()) slot.worker.process.kill('SIGTERM');
    const grace = (resolved.config.server.shutdown_timeout_ms ?? 5000) + EXIT_GRACE_MS;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([allExited, new Promise((resolve) => (timer = setTimeout(resolve, grace)))]);
    clearTimeout(timer);
    for (const slot of slots.values()) slot.worker.process.kill('SIGKILL');
  };

  let lines: string[];
  try {
    // the first alone: it brings the build up to date for every worker
    lines = await start(1);
    await Promise.all(Array.from({ length: count - 1 }, (_, i) => start(i + 2)));
  } catch (e) {
    await stopAll();
    throw e;
  }
  const store = host === undefined ? 'in Redis (state.store redis)' : 'held by this process for all of them';
  options.say(
    [
      ...lines,
      `mock: ${count} workers (pids ${statuses()
        .map((s) => s.pid)
        .join(', ')}) share these ports; their state is ${store}`,
    ].join('\n'),
  );
  const signal = await untilSignal();
  logger.info({ signal }, `shutting down ${slots.size} worker(s) (${signal})`);
  await stopAll();
}
