import { MemoryStore, StoreRefusal, andThen, type Awaitable, type Store, type StoreBudget } from '../../store/index.js';

/** Where a resource stands: its state and the instant (epoch ms, on the process's clock) it entered it. */
export interface StateRecord {
  readonly state: string;
  readonly enteredAt: number;
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

/** What a record costs besides its key: the LRU's entry, the order's entry, the record object. */
const ENTRY_OVERHEAD = 256;
/** core.stateful.max_store_mb's default. */
export const DEFAULT_STATE_STORE_MB = 64;

/**
 * The `state-machines` store's budget (core.stateful.max_store_mb): resources are made up by
 * clients, so past it the least recently used are forgotten (they start again in initial_state).
 * A record costs its key as UTF-16 twice (the LRU and the order of first states) plus ENTRY_OVERHEAD.
 */
export const stateBudget = (maxBytes = DEFAULT_STATE_STORE_MB * 1024 * 1024): StoreBudget<StateRecord> => ({
  maxBytes,
  past: 'evict',
  setting: 'core.stateful.max_store_mb',
  forgotten: "the resources' states",
  afterwards: ' and start again in their initial state',
  sizeOf: (key) => ENTRY_OVERHEAD + 4 * key.length,
});

/**
 * The states of every machine's resources, keyed by machine name and resource id, in the
 * `state-machines` store (runtime/store): in memory by default, shared when the store is. Every
 * method may answer with a promise; the memory store answers at once, which keeps stateful routes
 * on the synchronous path.
 */
export class StateStore {
  constructor(private readonly store: Store<StateRecord> = new MemoryStore('state-machines', stateBudget())) {}

  get(machine: string, id: string): Awaitable<StateRecord | undefined> {
    return this.store.get(keyOf(machine, id));
  }

  /** Throws StateTooLarge for a record larger than the whole store. */
  set(machine: string, id: string, record: StateRecord): Awaitable<void> {
    try {
      return caught(machine, this.store.set(keyOf(machine, id), record));
    } catch (e) {
      return tooLarge(machine, e);
    }
  }

  /**
   * Reads the resource's record, hands it to `decide` and stores what that returns (undefined:
   * nothing changes), as one step (Store.update). Answers what `decide` returned.
   */
  update(machine: string, id: string, decide: (current: StateRecord | undefined) => StateRecord | undefined): Awaitable<StateRecord | undefined> {
    try {
      return caught(machine, this.store.update(keyOf(machine, id), decide));
    } catch (e) {
      return tooLarge(machine, e);
    }
  }

  /** Whether the resource had a state. */
  delete(machine: string, id: string): Awaitable<boolean> {
    return this.store.delete(keyOf(machine, id));
  }

  /** The machine's resources, in the order they got their first state. */
  list(machine: string): Awaitable<Array<[id: string, record: StateRecord]>> {
    const prefix = machinePrefix(machine);
    return andThen(this.store.entries(prefix), (entries) => entries.map(([key, record]): [string, StateRecord] => [key.slice(prefix.length), record]));
  }

  count(machine: string): Awaitable<number> {
    return andThen(this.store.entries(machinePrefix(machine)), (entries) => entries.length);
  }

  /** Forgets the machine's resources; answers how many there were. */
  clear(machine: string): Awaitable<number> {
    return this.store.clear(machinePrefix(machine));
  }
}

/** The store's refusal of one record larger than the whole budget, told as StateTooLarge. */
function tooLarge(machine: string, e: unknown): never {
  if (e instanceof StoreRefusal) throw new StateTooLarge(machine, e.bytes, e.maxBytes);
  throw e;
}

/** `done`, its later refusal told as StateTooLarge too. */
const caught = <T>(machine: string, done: Awaitable<T>): Awaitable<T> => (done instanceof Promise ? done.catch((e: unknown) => tooLarge(machine, e)) : done);

/** The machine's name length-prefixed: no machine's prefix is another's, so no pair of machine and id can pass for another. */
const machinePrefix = (machine: string): string => `${machine.length}:${machine}`;
const keyOf = (machine: string, id: string): string => machinePrefix(machine) + id;
