import type { StoreBudget, StoreName, StoreUsage } from './store.js';

/**
 * The messages between the stores of a worker (ClusterStores) and the primary that holds them for
 * every worker (StoreHost), over the workers' IPC channel. Values travel as JSON text, as in Redis.
 */

/** A budget as the primary takes it: its numbers and words; what an entry costs is worked out by the worker. */
export type WireBudget = Omit<StoreBudget<unknown>, 'sizeOf'>;

export type StoreOp =
  | { op: 'open'; budget: WireBudget }
  | { op: 'get'; key: string }
  | { op: 'set'; key: string; json: string; size: number; expected?: string }
  | { op: 'delete'; key: string }
  | { op: 'entries'; prefix: string }
  | { op: 'clear'; prefix: string }
  | { op: 'subscribe' };

export type StoreRequest = { kind: 'mock-store'; id: number; store: StoreName } & StoreOp;

export type StoreFailure = { type: 'refusal'; key: string; bytes: number; maxBytes: number; setting: string; full: boolean } | { type: 'error'; message: string };

export type StoreReply = { kind: 'mock-store-reply'; id: number; usage: StoreUsage; applied: number } & ({ ok: true; value: unknown } | { ok: false; failure: StoreFailure });

/** A change the primary's store made, sent to every worker that subscribed to the store; the worker acknowledges it once its listeners heard it. */
export interface StoreChangeMessage {
  kind: 'mock-store-change';
  seq: number;
  store: StoreName;
  key: string;
  json?: string;
}

export interface StoreAck {
  kind: 'mock-store-ack';
  seq: number;
}

export type FromWorker = StoreRequest | StoreAck;
export type ToWorker = StoreReply | StoreChangeMessage;

const KINDS = new Set(['mock-store', 'mock-store-ack', 'mock-store-reply', 'mock-store-change']);

/** Whether an IPC message is the stores' (the channel carries other messages too). */
export function isStoreMessage(message: unknown): message is FromWorker | ToWorker {
  return typeof message === 'object' && message !== null && KINDS.has((message as { kind?: string }).kind ?? '');
}
