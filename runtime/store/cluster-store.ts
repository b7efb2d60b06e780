import type { StoreOp, StoreReply } from './cluster-messages.js';
import { OptimisticUpdates } from './optimistic-updates.js';
import { StoreRefusal } from './store-refusal.js';
import type { Store, StoreBudget, StoreChange, StoreName, StoreUsage } from './store.js';

/** Sends one operation of a store to the primary and answers its reply. */
export type AskPrimary = (store: StoreName, op: StoreOp) => Promise<StoreReply>;

/**
 * A worker's view of a store the primary holds for every worker (`mock serve --workers`, state.store
 * memory; StoreHost): each method asks the primary over IPC. What an entry costs is worked out
 * here (the budget's sizeOf) and sent along; update is optimistic (OptimisticUpdates). Changes,
 * this worker's and every other's, reach the listeners from the primary once it holds them, before
 * the write that made them answers.
 */
export class ClusterStore<V> implements Store<V> {
  private readonly listeners = new Set<(change: StoreChange<V>) => void>();
  private readonly updates: OptimisticUpdates<V>;
  private subscribed = false;
  private latest: StoreUsage;

  constructor(
    readonly name: StoreName,
    private readonly budget: StoreBudget<V>,
    private readonly ask: AskPrimary,
    /** Told of every operation sent (ClusterStores.settled, and how many workers applied the last write). */
    private readonly track: (reply: Promise<StoreReply>) => void,
  ) {
    this.latest = { name, entries: 0, bytes: 0, max_bytes: budget.maxBytes, evicted: 0 };
    const { sizeOf: _, ...wire } = budget;
    void this.send({ budget: wire, op: 'open' });
    this.updates = new OptimisticUpdates(name, {
      read: async (key) => (await this.send({ op: 'get', key })) as string | null,
      write: (key, value, expected) => this.write(key, value, expected),
    });
  }

  async get(key: string): Promise<V | undefined> {
    const json = (await this.send({ op: 'get', key })) as string | null;
    return json === null ? undefined : (JSON.parse(json) as V);
  }

  async set(key: string, value: V): Promise<void> {
    await this.write(key, value, undefined);
  }

  update(key: string, decide: (current: V | undefined) => V | undefined): Promise<V | undefined> {
    return this.updates.update(key, decide);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.send({ op: 'delete', key })) as boolean;
  }

  async entries(prefix = ''): Promise<Array<[string, V]>> {
    const entries = (await this.send({ op: 'entries', prefix })) as Array<[string, string]>;
    return entries.map(([key, json]) => [key, JSON.parse(json) as V]);
  }

  async clear(prefix = ''): Promise<number> {
    return (await this.send({ op: 'clear', prefix })) as number;
  }

  subscribe(listener: (change: StoreChange<V>) => void): () => void {
    const own = (change: StoreChange<V>): void => listener(change);
    this.listeners.add(own);
    // the primary sends changes only to workers that listen: a store nobody follows (rate-limit buckets) costs no messages
    if (!this.subscribed) {
      this.subscribed = true;
      void this.send({ op: 'subscribe' });
    }
    return () => void this.listeners.delete(own);
  }

  usage(): StoreUsage {
    return this.latest;
  }

  /** A change the primary's store made (this worker's or another's). */
  hear(key: string, json: string | undefined): void {
    const value = json === undefined ? undefined : (JSON.parse(json) as V);
    for (const listener of this.listeners) listener({ key, value });
  }

  private async write(key: string, value: V, expected: string | undefined): Promise<boolean> {
    return (await this.send({ op: 'set', key, json: JSON.stringify(value), size: this.budget.sizeOf(key, value), expected })) as boolean;
  }

  private async send(op: StoreOp): Promise<unknown> {
    const asked = this.ask(this.name, op);
    this.track(asked);
    const reply = await asked;
    this.latest = reply.usage;
    if (reply.ok) return reply.value;
    const { failure } = reply;
    if (failure.type === 'refusal') throw new StoreRefusal(this.name, failure.key, failure.bytes, failure.maxBytes, failure.setting, failure.full);
    throw new Error(failure.message);
  }
}
