import { appliedCount } from './applied-count.js';
import type { FromWorker, StoreOp, StoreReply, ToWorker } from './cluster-messages.js';
import { ClusterStore } from './cluster-store.js';
import { PendingCommands } from './pending-commands.js';
import type { Store, StoreBudget, StoreFactory, StoreName } from './store.js';

/**
 * The stores of one worker of `mock serve --workers` with state.store memory: held by the primary
 * for every worker (StoreHost), asked over the IPC channel `send` writes to; the worker hands the
 * primary's messages to `receive`.
 */
export class ClusterStores implements StoreFactory {
  private readonly stores = new Map<StoreName, ClusterStore<unknown>>();
  private readonly waiting = new Map<number, (reply: StoreReply) => void>();
  private readonly pending = new PendingCommands();
  private next = 0;

  constructor(private readonly send: (message: FromWorker) => void) {}

  open<V>(name: StoreName, budget: StoreBudget<V>): Store<V> {
    const open = this.stores.get(name);
    if (open !== undefined) return open as unknown as Store<V>;
    const store = new ClusterStore<V>(
      name,
      budget,
      (store, op) => this.ask(store, op),
      (reply) => this.pending.track(reply),
    );
    this.stores.set(name, store as ClusterStore<unknown>);
    return store;
  }

  opened(): Array<Store<unknown>> {
    return [...this.stores.values()];
  }

  settled(): Promise<void> {
    return this.pending.settled();
  }

  /** A message from the primary: a reply, or a change to hear and acknowledge. */
  receive(message: ToWorker): void {
    if (message.kind === 'mock-store-reply') {
      const answer = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      answer?.(message);
      return;
    }
    this.stores.get(message.store)?.hear(message.key, message.json);
    this.send({ kind: 'mock-store-ack', seq: message.seq });
  }

  private ask(store: StoreName, op: StoreOp): Promise<StoreReply> {
    const id = ++this.next;
    // the admin request this write is made for, read now: the reply arrives in another context
    const count = op.op === 'set' || op.op === 'delete' || op.op === 'clear' ? appliedCount() : undefined;
    return new Promise((resolve) => {
      this.waiting.set(id, (reply) => {
        count?.note(reply.applied);
        resolve(reply);
      });
      this.send({ kind: 'mock-store', id, store, ...op });
    });
  }
}
