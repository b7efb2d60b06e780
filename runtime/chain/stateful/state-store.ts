import { LRUCache } from 'lru-cache';
import { WarningGate } from '../../../common/warning-gate.js';

/** Where a resource stands: its state and the instant (epoch ms, on the process's clock) it entered it. */
export interface StateRecord {
  readonly state: string;
  readonly enteredAt: number;
}

/** A value now, or later from a store that asks another process. */
export type Awaitable<T> = T | Promise<T>;

/** `next` of the value, synchronously when it is there already: the memory store never costs a tick. */
export function andThen<T, R>(value: Awaitable<T>, next: (value: T) => R): Awaitable<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * The states of every machine's resources, keyed by machine name and resource id. Every method may
 * answer with a promise, so a store shared by several instances (Redis) can implement it; the
 * memory store answers at once, which keeps stateful routes on the synchronous path.
 */
export interface StateStore {
  get(machine: string, id: string): Awaitable<StateRecord | undefined>;
  set(machine: string, id: string, record: StateRecord): Awaitable<void>;
  /**
   * Reads the resource's record, hands it to `decide` and stores what that returns (undefined:
   * nothing changes), as one step: no other change to the same resource comes in between (a
   * shared store makes this a transaction). Answers what `decide` returned.
   */
  update(machine: string, id: string, decide: (current: StateRecord | undefined) => StateRecord | undefined): Awaitable<StateRecord | undefined>;
  /** Whether the resource had a state. */
  delete(machine: string, id: string): Awaitable<boolean>;
  /** The machine's resources, in the order they got their first state. */
  list(machine: string): Awaitable<Array<[id: string, record: StateRecord]>>;
  count(machine: string): Awaitable<number>;
  /** Forgets the machine's resources; answers how many there were. */
  clear(machine: string): Awaitable<number>;
}

/** A resource whose record alone is larger than the store's whole byte budget: refused, never stored. */
export class StateTooLarge extends Error {
  constructor(
    readonly machine: string,
    readonly bytes: number,
    readonly budgetBytes: number,
  ) {
    super(`a resource of ${machine} takes ${bytes} bytes, more than the whole store (${budgetBytes} bytes)`);
  }
}

/** What a record costs besides its key and id: the LRU's entry, the record object, the machine's index entry. */
const ENTRY_OVERHEAD = 256;
/** core.stateful.max_store_mb's default. */
export const DEFAULT_STATE_STORE_MB = 64;

export interface MemoryStoreOptions {
  /** The byte budget of every machine's resources together (core.stateful.max_store_mb); DEFAULT_STATE_STORE_MB when absent. */
  maxBytes?: number;
  /** Told, at most once a minute, that least recently used resources were forgotten. */
  warn?: (message: string) => void;
}

interface Entry {
  readonly machine: string;
  readonly id: string;
  record: StateRecord;
}

/**
 * The default store, in this process, under a byte budget (core.stateful.max_store_mb): one LRU
 * (lru-cache, sized by what each record holds: its key and id as UTF-16, plus ENTRY_OVERHEAD) over
 * every machine's resources, so a client making up ids cannot grow it without bound; past the
 * budget the least recently used resources are forgotten (they start again in initial_state),
 * with one warning a minute. A record larger than the whole budget is refused (StateTooLarge).
 * Each machine keeps its ids in the order they got their first state, for list and count.
 */
export class MemoryStateStore implements StateStore {
  private readonly entries: LRUCache<string, Entry>;
  private readonly machines = new Map<string, Set<string>>();
  private readonly maxBytes: number;
  private readonly warnings: WarningGate;
  private evicted = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_STATE_STORE_MB * 1024 * 1024;
    this.warnings = new WarningGate(options.warn ?? (() => undefined));
    this.entries = new LRUCache<string, Entry>({
      maxSize: this.maxBytes,
      dispose: (entry, _key, reason) => {
        if (reason === 'set') return;
        this.machines.get(entry.machine)?.delete(entry.id);
        if (reason === 'evict') this.evicted++;
      },
    });
  }

  get(machine: string, id: string): StateRecord | undefined {
    return this.entries.get(keyOf(machine, id))?.record;
  }

  set(machine: string, id: string, record: StateRecord): void {
    this.put(machine, id, keyOf(machine, id), record);
  }

  /** Synchronous: nothing can run between the read and the write. */
  update(machine: string, id: string, decide: (current: StateRecord | undefined) => StateRecord | undefined): StateRecord | undefined {
    const key = keyOf(machine, id);
    const entry = this.entries.get(key);
    const next = decide(entry?.record);
    if (next === undefined) return next;
    if (entry !== undefined) entry.record = next;
    else this.put(machine, id, key, next);
    return next;
  }

  delete(machine: string, id: string): boolean {
    return this.entries.delete(keyOf(machine, id));
  }

  list(machine: string): Array<[string, StateRecord]> {
    const out: Array<[string, StateRecord]> = [];
    for (const id of this.machines.get(machine) ?? []) {
      // peek: listing is no use, it must not keep resources from being forgotten
      const entry = this.entries.peek(keyOf(machine, id));
      if (entry !== undefined) out.push([id, entry.record]);
    }
    return out;
  }

  count(machine: string): number {
    return this.machines.get(machine)?.size ?? 0;
  }

  clear(machine: string): number {
    const ids = this.machines.get(machine);
    if (ids === undefined) return 0;
    this.machines.delete(machine);
    for (const id of ids) this.entries.delete(keyOf(machine, id));
    return ids.size;
  }

  /** Stores a new resource's record; throws StateTooLarge for one larger than the whole budget. */
  private put(machine: string, id: string, key: string, record: StateRecord): void {
    const size = ENTRY_OVERHEAD + 2 * (key.length + id.length);
    if (size > this.maxBytes) throw new StateTooLarge(machine, size, this.maxBytes);
    const existing = this.entries.peek(key);
    if (existing !== undefined) {
      existing.record = record;
      this.entries.get(key);
      return;
    }
    this.entries.set(key, { machine, id, record }, { size });
    let ids = this.machines.get(machine);
    if (ids === undefined) this.machines.set(machine, (ids = new Set()));
    ids.add(id);
    if (this.evicted > 0) this.reportEvictions();
  }

  /** The evictions since the last warning, summed up in the next one that is due. */
  private reportEvictions(): void {
    if (!this.warnings.due()) return;
    const mb = this.maxBytes / (1024 * 1024);
    this.warnings.warn(`core.stateful: the resources' states fill core.stateful.max_store_mb (${mb}): the ${this.evicted} least recently used were forgotten and start again in their initial state; raise max_store_mb to keep more`);
    this.evicted = 0;
  }
}

/** One key per machine and id: the machine's name length-prefixed, so no pair can pass for another. */
const keyOf = (machine: string, id: string): string => `${machine.length}:${machine}${id}`;
