import { LRUCache } from 'lru-cache';
import { WarningGate } from '../../common/warning-gate.js';
import { evictionWarning } from './eviction-warning.js';
import { StoreRefusal } from './store-refusal.js';
import type { Store, StoreBudget, StoreChange, StoreName, StoreUsage } from './store.js';

interface Held<V> {
  value: V;
  size: number;
}

/**
 * The store in this process's memory: every method answers at once. Entries are held in one LRU
 * (lru-cache, sized by the budget's sizeOf), so a store that evicts forgets its least recently used
 * entries past the budget with one summed-up warning a minute; one that refuses throws StoreRefusal
 * before the LRU would evict. A second map keeps the order keys were first set, for entries().
 */
export class MemoryStore<V> implements Store<V> {
  private readonly held: LRUCache<string, Held<V>>;
  private readonly order = new Map<string, true>();
  private readonly listeners = new Set<(change: StoreChange<V>) => void>();
  private readonly warnings: WarningGate;
  private bytes = 0;
  private evicted = 0;
  private unreported = 0;

  constructor(
    readonly name: StoreName,
    private readonly budget: StoreBudget<V>,
    warn: (message: string) => void = () => undefined,
  ) {
    this.warnings = new WarningGate(warn);
    this.held = new LRUCache<string, Held<V>>({
      // a store that refuses never lets its entries reach maxSize: put() refuses first
      maxSize: budget.maxBytes,
      sizeCalculation: (entry) => entry.size,
      dispose: (entry, key, reason) => {
        if (reason === 'set') return;
        this.bytes -= entry.size;
        this.order.delete(key);
        if (reason === 'evict') {
          this.evicted++;
          this.unreported++;
          this.announce(key, undefined);
        }
      },
    });
  }

  get(key: string): V | undefined {
    return this.held.get(key)?.value;
  }

  set(key: string, value: V): void {
    this.put(key, value, this.held.get(key));
    this.announce(key, value);
  }

  /** Synchronous: nothing can run between the read and the write. */
  update(key: string, decide: (current: V | undefined) => V | undefined): V | undefined {
    const entry = this.held.get(key);
    const next = decide(entry?.value);
    if (next === undefined) return next;
    this.put(key, next, entry);
    if (this.listeners.size > 0) this.announce(key, next);
    return next;
  }

  delete(key: string): boolean {
    if (!this.held.delete(key)) return false;
    this.announce(key, undefined);
    return true;
  }

  entries(prefix = ''): Array<[string, V]> {
    const out: Array<[string, V]> = [];
    for (const key of this.order.keys()) {
      if (!key.startsWith(prefix)) continue;
      // peek: listing is no use, it must not keep entries from being forgotten
      const entry = this.held.peek(key);
      if (entry !== undefined) out.push([key, entry.value]);
    }
    return out;
  }

  clear(prefix = ''): number {
    const keys = [...this.order.keys()].filter((key) => key.startsWith(prefix));
    for (const key of keys) this.delete(key);
    return keys.length;
  }

  subscribe(listener: (change: StoreChange<V>) => void): () => void {
    // a wrapper of its own: the same function subscribed twice is two subscriptions
    const own = (change: StoreChange<V>): void => listener(change);
    this.listeners.add(own);
    return () => void this.listeners.delete(own);
  }

  usage(): StoreUsage {
    return { name: this.name, entries: this.held.size, bytes: this.bytes, max_bytes: this.budget.maxBytes, evicted: this.evicted };
  }

  /** Stores `value` under `key` (`entry`: what the key holds now); throws StoreRefusal when the budget does not allow it. */
  private put(key: string, value: V, entry: Held<V> | undefined): void {
    const size = this.budget.sizeOf(key, value);
    if (entry !== undefined && entry.size === size) {
      entry.value = value;
      return;
    }
    const { maxBytes, past, setting } = this.budget;
    if (size > maxBytes) throw new StoreRefusal(this.name, key, size, maxBytes, setting, false);
    const growth = size - (entry?.size ?? 0);
    if (past === 'refuse' && this.bytes + growth > maxBytes) throw new StoreRefusal(this.name, key, growth, maxBytes, setting, true);
    this.held.set(key, { value, size });
    this.bytes += growth;
    if (entry === undefined) this.order.set(key, true);
    if (this.unreported > 0) this.reportEvictions();
  }

  private announce(key: string, value: V | undefined): void {
    for (const listener of this.listeners) listener({ key, value });
  }

  /** The evictions since the last warning, summed up in the next one that is due. */
  private reportEvictions(): void {
    if (!this.warnings.due()) return;
    this.warnings.warn(evictionWarning(this.name, this.budget as StoreBudget<never>, this.unreported));
    this.unreported = 0;
  }
}
