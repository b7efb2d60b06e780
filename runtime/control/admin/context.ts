import type { Logger } from 'pino';
import type { Auth } from '../auth/index.js';
import type { AtomicWriter } from '../../files/index.js';
import type { EditableFiles } from './file-kinds.js';
import type { LiveState } from '../../chain/settings/index.js';
import type { RecorderDb } from '../../chain/recorder/index.js';
import type { LogStream, RequestLog, RequestLogFilter } from '../logging/index.js';
import type { ResourceSampler, TrafficStats } from '../metrics/index.js';
import type { ServerRegistry } from '../registry/index.js';
import type { FixtureStore } from '../../chain/fixtures/index.js';
import type { StatefulService } from '../../chain/stateful/index.js';
import type { CaptureLog, DriftListener } from '../../contract-diff/index.js';
import type { ScenarioControl } from './scenario-control.js';
import type { WebhookSender } from '../../callbacks/index.js';

export type { RestartStatus, ServerControl } from '../registry/index.js';

/** Runtime-only environment changes (POST /__mock/env). */
export interface EnvControl {
  /** Variables the server reads. */
  known: readonly string[];
  /** GET /__mock/env: the set MOCK_ variables (secrets masked). */
  values(): Record<string, string>;
  /** Sets a variable for this process and applies it where it maps to a live setting (settling once the store holds it); answers the message. */
  set(key: string, value: string): Promise<string>;
}

/** One worker of `mock serve --workers`, as GET /__mock/health lists it. */
export interface WorkerStatus {
  /** 1 to the number of workers; a restarted worker keeps the number of the one it replaces. */
  worker: number;
  pid: number;
  /** starting until its servers listen. */
  state: 'starting' | 'serving';
  /** ISO time it started serving (or was started, while starting). */
  started_at: string;
  /** How often a worker of this number died and was started again. */
  restarts: number;
  /** HTTP requests it answered, as it last reported (every second). */
  requests: number;
}

/**
 * What the admin API of one worker of `mock serve --workers` asks every worker (through the
 * primary) to show or change them all as one (cluster-questions.ts): their request logs (and
 * clearing them), traffic counts, coverage and Prometheus metrics, a restart of their servers, their
 * recorders' figures once each has written what it queued, their per-route counts, their restarts'
 * status. Plain data both ways: questions and answers cross processes. An answer may be a promise,
 * which the worker settles first.
 */
export type ClusterQuestion =
  | { kind: 'logs'; filter: RequestLogFilter }
  | { kind: 'logs/clear' }
  | { kind: 'traffic' }
  | { kind: 'coverage' }
  | { kind: 'restart'; reason: string | null }
  | { kind: 'prometheus' }
  | { kind: 'recorder' }
  | { kind: 'routes' }
  | { kind: 'restart/status' };

/** What a worker of `mock serve --workers` knows of the others, through the primary. */
export interface ClusterView {
  /** This worker's number. */
  readonly worker: number;
  workers(): Promise<WorkerStatus[]>;
  /** How many workers held an admin request's changes when it answered, from the fewest its shared-store writes reached (undefined: it wrote none). */
  applied(fewest: number | undefined): number | undefined;
  /** Every live worker's answer to `question` (this one's included), in the order of their numbers. */
  gather(question: ClusterQuestion): Promise<unknown[]>;
}

/** Everything the admin endpoints read and change. */
export interface AdminContext {
  version: string;
  /** Epoch ms the process started serving. */
  startedAt: number;
  live: LiveState;
  requestLog: RequestLog;
  /** The request log's live stream (logs/sse), shared by every server of the process. */
  logStream: LogStream;
  stats: TrafficStats;
  sampler: ResourceSampler;
  /** Every protocol server of the process: servers[], server-info and health read it. */
  registry: ServerRegistry;
  auth: Auth;
  env: EnvControl;
  /** Files the admin API may read and write live under it. */
  projectDir: string;
  /** The recorder database, while mock serve --recorder is on (recorder/* endpoints). */
  recorder?: RecorderDb;
  /** Which of them it may touch, and how it saves them. */
  files: EditableFiles & { writer: AtomicWriter };
  logger: Logger;
  /** core.fixtures; absent where no fixture folder is configured (`mock admin`). */
  fixtures?: FixtureStore;
  /** core.stateful's machines and states; absent while it is off (and in `mock admin`). */
  stateful?: StatefulService;
  /** The project's scenario packages (mock serve hands them in); absent in `mock admin`. */
  scenarios?: ScenarioControl;
  /** The workers, when this process is one of several (`mock serve --workers`). */
  cluster?: ClusterView;
  /** The contract-diff captures (contract-diff/* endpoints); absent in `mock admin`. */
  contractDiff?: CaptureLog;
  /** Told of every capture an analysis here finds drifting (contract_diff.webhooks). */
  driftListener?: DriftListener;
  /** The descriptions' webhooks, sent on demand (webhooks/* endpoints); absent in `mock admin`. */
  webhooks?: WebhookSender;
}
