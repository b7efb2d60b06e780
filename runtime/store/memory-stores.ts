import { MemoryStore } from './memory-store.js';
import type { Store, StoreBudget, StoreFactory, StoreName } from './store.js';

/** The stores of one process in its own memory (state.store `memory`, the default). */
export class MemoryStores implements StoreFactory {
  private readonly stores = new Map<StoreName, Store<unknown>>();
  private readonly namespaces = new Map<string, MemoryStores>();

  /** `warn`: where the stores' eviction warnings go (the server's logger). */
  constructor(private readonly warn: (message: string) => void = () => undefined) {}

  /** A store opened again (a server rebuilt by a restart) is the same store: what it holds outlives the rebuild. */
  open<V>(name: StoreName, budget: StoreBudget<V>): Store<V> {
    const open = this.stores.get(name);
    if (open !== undefined) return open as Store<V>;
    const store = new MemoryStore<V>(name, budget, this.warn);
    this.stores.set(name, store as Store<unknown>);
    return store;
  }

  opened(): Array<Store<unknown>> {
    return [...this.stores.values()];
  }

  /** A tenant's stores: a set of its own, the same for the same namespace (a server rebuilt by mock sync keeps what they hold). */
  within(namespace: string): StoreFactory {
    let inner = this.namespaces.get(namespace);
    if (inner === undefined) {
      inner = new MemoryStores(this.warn);
      this.namespaces.set(namespace, inner);
    }
    return inner;
  }

  /** Memory answers at once: nothing is ever pending. */
  settled(): Promise<void> {
    return Promise.resolve();
  }
}
