import { MemoryStore } from './memory-store.js';
import { StoreRefusal } from './store-refusal.js';
import type { FromWorker, StoreFailure, StoreRequest, ToWorker, WireBudget } from './cluster-messages.js';
import type { StoreName } from './store.js';

interface Worker {
  send: (message: ToWorker) => void;
  subscribed: Set<StoreName>;
}

interface HostedStore {
  store: MemoryStore<string>;
  /** What the entry being written costs, as the worker worked it out (the budget's sizeOf runs there). */
  size: number;
}

interface Broadcast {
  waiting: Set<number>;
  done: () => void;
}

/**
 * The primary's side of `mock serve --workers` with state.store memory: it holds every store in its
 * own memory (MemoryStore, so budgets, eviction and refusal are the memory store's) for all the
 * workers, which ask it over IPC (ClusterStores). A change is sent to every worker that subscribed to
 * its store, and the write answers once each of them has applied it (or died): the answer says how
 * many workers hold the change.
 */
export class StoreHost {
  private readonly stores = new Map<StoreName, HostedStore>();
  private readonly workers = new Map<number, Worker>();
  private readonly broadcasts = new Map<number, Broadcast>();
  /** The broadcasts the change being made sends (a write, a delete, an eviction it causes). */
  private sending: Array<Promise<void>> | undefined;
  private seq = 0;

  constructor(private readonly warn: (message: string) => void) {}

  addWorker(id: number, send: (message: ToWorker) => void): void {
    this.workers.set(id, { send, subscribed: new Set() });
  }

  /** A worker gone: nothing waits for it any more. */
  removeWorker(id: number): void {
    this.workers.delete(id);
    for (const [seq, broadcast] of this.broadcasts) this.acknowledged(seq, id, broadcast);
  }

  /** A message of worker `id`: a store request, or the acknowledgement of a change. */
  receive(id: number, message: FromWorker): void {
    if (message.kind === 'mock-store-ack') {
      const broadcast = this.broadcasts.get(message.seq);
      if (broadcast !== undefined) this.acknowledged(message.seq, id, broadcast);
      return;
    }
    void this.answer(id, message);
  }

  private async answer(id: number, request: StoreRequest): Promise<void> {
    const worker = this.workers.get(id);
    if (worker === undefined) return;
    const hosted = request.op === 'open' ? this.open(request.store, request.budget) : this.stores.get(request.store);
    if (hosted === undefined) return worker.send(this.failure(request, { type: 'error', message: `${request.store}: not opened` }));
    this.sending = [];
    let value: unknown;
    try {
      value = this.apply(id, hosted, request);
    } catch (e) {
      this.sending = undefined;
      const failure: StoreFailure =
        e instanceof StoreRefusal ? { type: 'refusal', key: e.key, bytes: e.bytes, maxBytes: e.maxBytes, setting: e.setting, full: e.full } : { type: 'error', message: (e as Error).message };
      return worker.send(this.failure(request, failure));
    }
    const sent = this.sending;
    this.sending = undefined;
    await Promise.all(sent);
    this.workers.get(id)?.send({ kind: 'mock-store-reply', id: request.id, ok: true, value, usage: hosted.store.usage(), applied: this.workers.size });
  }

  private apply(id: number, hosted: HostedStore, request: StoreRequest): unknown {
    const { store } = hosted;
    switch (request.op) {
      case 'open':
        return null;
      case 'subscribe':
        this.workers.get(id)?.subscribed.add(request.store);
        return null;
      case 'get':
        return store.get(request.key) ?? null;
      case 'set': {
        hosted.size = request.size;
        const { expected } = request;
        if (expected === undefined) {
          store.set(request.key, request.json);
          return true;
        }
        // compare-and-set: stored only if the entry still holds what the worker read
        if ((store.get(request.key) ?? '') !== expected) return false;
        store.set(request.key, request.json);
        return true;
      }
      case 'delete':
        return store.delete(request.key);
      case 'entries':
        return store.entries(request.prefix);
      case 'clear':
        return store.clear(request.prefix);
    }
  }

  private open(name: StoreName, budget: WireBudget): HostedStore {
    const open = this.stores.get(name);
    if (open !== undefined) return open;
    const hosted: HostedStore = { store: undefined as unknown as MemoryStore<string>, size: 0 };
    hosted.store = new MemoryStore<string>(name, { ...budget, sizeOf: () => hosted.size }, this.warn);
    hosted.store.subscribe((change) => this.broadcast(name, change.key, change.value));
    this.stores.set(name, hosted);
    return hosted;
  }

  /** Sends a change to the workers that subscribed to its store; the write that made it answers once they applied it. */
  private broadcast(store: StoreName, key: string, json: string | undefined): void {
    const seq = ++this.seq;
    const waiting = new Set<number>();
    for (const [id, worker] of this.workers) {
      if (!worker.subscribed.has(store)) continue;
      waiting.add(id);
      worker.send({ kind: 'mock-store-change', seq, store, key, json });
    }
    if (waiting.size === 0) return;
    const done = new Promise<void>((resolve) => this.broadcasts.set(seq, { waiting, done: resolve }));
    this.sending?.push(done);
  }

  private acknowledged(seq: number, id: number, broadcast: Broadcast): void {
    broadcast.waiting.delete(id);
    if (broadcast.waiting.size > 0) return;
    this.broadcasts.delete(seq);
    broadcast.done();
  }

  private failure(request: StoreRequest, failure: StoreFailure): ToWorker {
    const usage = this.stores.get(request.store)?.store.usage() ?? { name: request.store, entries: 0, bytes: 0, max_bytes: 0, evicted: 0 };
    return { kind: 'mock-store-reply', id: request.id, ok: false, failure, usage, applied: 0 };
  }
}
