import { StoreRefusal, type Awaitable, type Store, type StoreBudget, type StoreChange, type StoreFactory, type StoreName, type StoreUsage } from '../store/index.js';

/**
 * A hosted mock's stores under its plan's max_storage_mb, all of them together: a write that
 * would take the tenant past it is refused (StoreRefusal, 409 on the admin API), in stores that
 * refuse past their budget (what the tenant configures: mocks, settings, keys). Stores that forget
 * past their budget (resources, buckets) forget within the quota instead: each is held to it.
 */
export class QuotaStores implements StoreFactory {
  private readonly stores = new Map<StoreName, Store<unknown>>();

  constructor(
    private readonly inner: StoreFactory,
    private readonly maxBytes: number,
    /** Named in the refusal: `max_storage_mb of plan basic`. */
    private readonly setting: string,
  ) {}

  /** A store opened again (the tenant's mock reopened) is the same store. */
  open<V>(name: StoreName, budget: StoreBudget<V>): Store<V> {
    const open = this.stores.get(name);
    if (open !== undefined) return open as Store<V>;
    const held = Math.min(budget.maxBytes, this.maxBytes);
    const store = this.inner.open(name, { ...budget, maxBytes: held, setting: held < budget.maxBytes ? this.setting : budget.setting });
    const opened = budget.past === 'refuse' ? new QuotaStore(store, budget, this) : store;
    this.stores.set(name, opened as Store<unknown>);
    return opened;
  }

  opened(): Array<Store<unknown>> {
    return [...this.stores.values()];
  }

  settled(): Promise<void> {
    return this.inner.settled?.() ?? Promise.resolve();
  }

  /** Refuses `bytes` more when they do not fit beside what every store of the tenant holds. */
  check(store: StoreName, key: string, bytes: number): void {
    let used = 0;
    for (const open of this.stores.values()) used += open.usage().bytes;
    if (used + bytes > this.maxBytes) throw new StoreRefusal(store, key, bytes, this.maxBytes, this.setting, true);
  }
}

class QuotaStore<V> implements Store<V> {
  readonly name: StoreName;

  constructor(
    private readonly inner: Store<V>,
    private readonly budget: StoreBudget<V>,
    private readonly quota: QuotaStores,
  ) {
    this.name = inner.name;
  }

  get(key: string): Awaitable<V | undefined> {
    return this.inner.get(key);
  }

  set(key: string, value: V): Awaitable<void> {
    const current = this.inner.get(key);
    const write = (held: V | undefined): Awaitable<void> => {
      this.checkGrowth(key, held === undefined ? 0 : this.budget.sizeOf(key, held), value);
      return this.inner.set(key, value);
    };
    return current instanceof Promise ? current.then(write) : write(current);
  }

  update(key: string, decide: (current: V | undefined) => V | undefined): Awaitable<V | undefined> {
    return this.inner.update(key, (current) => {
      const size = current === undefined ? 0 : this.budget.sizeOf(key, current);
      const next = decide(current);
      if (next !== undefined) this.checkGrowth(key, size, next);
      return next;
    });
  }

  delete(key: string): Awaitable<boolean> {
    return this.inner.delete(key);
  }

  entries(prefix?: string): Awaitable<Array<[key: string, value: V]>> {
    return this.inner.entries(prefix);
  }

  clear(prefix?: string): Awaitable<number> {
    return this.inner.clear(prefix);
  }

  subscribe(listener: (change: StoreChange<V>) => void): () => void {
    return this.inner.subscribe(listener);
  }

  usage(): StoreUsage {
    return this.inner.usage();
  }

  /** What the write adds (its size less what it replaces) must fit in the tenant's quota. */
  private checkGrowth(key: string, before: number, next: V): void {
    const growth = this.budget.sizeOf(key, next) - before;
    if (growth > 0) this.quota.check(this.name, key, growth);
  }
}
