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

/** The default store: one map per machine in this process. */
export class MemoryStateStore implements StateStore {
  private readonly machines = new Map<string, Map<string, StateRecord>>();

  get(machine: string, id: string): StateRecord | undefined {
    return this.machines.get(machine)?.get(id);
  }

  set(machine: string, id: string, record: StateRecord): void {
    this.resources(machine).set(id, record);
  }

  /** Synchronous: nothing can run between the read and the write. */
  update(machine: string, id: string, decide: (current: StateRecord | undefined) => StateRecord | undefined): StateRecord | undefined {
    const resources = this.resources(machine);
    const next = decide(resources.get(id));
    if (next !== undefined) resources.set(id, next);
    return next;
  }

  delete(machine: string, id: string): boolean {
    return this.machines.get(machine)?.delete(id) ?? false;
  }

  list(machine: string): Array<[string, StateRecord]> {
    return [...(this.machines.get(machine) ?? [])];
  }

  count(machine: string): number {
    return this.machines.get(machine)?.size ?? 0;
  }

  clear(machine: string): number {
    const count = this.count(machine);
    this.machines.delete(machine);
    return count;
  }

  private resources(machine: string): Map<string, StateRecord> {
    let resources = this.machines.get(machine);
    if (resources === undefined) this.machines.set(machine, (resources = new Map()));
    return resources;
  }
}
