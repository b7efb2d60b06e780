import type { MockErrorCode } from '../../../common/errors.js';
import type { ClusterQuestion, FromWorker, RequestLogEntryJson, ToWorker, WorkerStatus } from '../../../runtime/index.js';
import type { ResolvedConfig } from '../../config/index.js';

/** The primary's first message to a worker: what to serve. */
export interface ServeMessage {
  kind: 'mock-serve';
  worker: number;
  resolved: ResolvedConfig;
  allowRefs: string[];
  /** The first worker also runs what only one process can (StartServingOptions.soleServers). */
  first: boolean;
  /** Base64 of the random key every worker signs admin tokens with while JWT_SECRET is unset. */
  sharedKey: string;
  /** GraphQL's seed when --seed is unset, drawn once for every worker. */
  graphqlSeed: number;
}

export interface WorkersReply {
  kind: 'mock-workers-reply';
  id: number;
  workers: WorkerStatus[];
}

/** A question another worker's admin API asks every worker (runtime's ClusterQuestion), and the answers of all. */
export interface QuestionMessage {
  kind: 'mock-question';
  id: number;
  question: ClusterQuestion;
}

export interface GatherReply {
  kind: 'mock-gather-reply';
  id: number;
  answers: unknown[];
}

/**
 * While any worker's live streams have a client, every worker forwards its request log entries, at
 * most `perSecond` a second (what the most demanding worker's clients take; null: every entry); 0:
 * none.
 */
export interface ForwardMessage {
  kind: 'mock-forward';
  perSecond: number | null;
}

/** Request log entries of other workers, for this worker's live streams; from a worker, its own, for the others'. */
export interface EntriesMessage {
  kind: 'mock-entries';
  entries: RequestLogEntryJson[];
}

export type ToServeWorker = ServeMessage | WorkersReply | QuestionMessage | GatherReply | ForwardMessage | EntriesMessage | ToWorker;

export type FromServeWorker =
  | { kind: 'mock-listening' }
  | { kind: 'mock-ready'; lines: string[] }
  | { kind: 'mock-failed'; message: string; code?: MockErrorCode; exitCode?: number }
  | { kind: 'mock-heartbeat'; requests: number }
  | { kind: 'mock-workers'; id: number }
  | { kind: 'mock-gather'; id: number; question: ClusterQuestion }
  | { kind: 'mock-answer'; id: number; answer: unknown }
  /** How many entries a second this worker's live streams take (0: no client; null: every entry): what the others forward. */
  | { kind: 'mock-follow'; perSecond: number | null }
  | EntriesMessage
  | FromWorker;
