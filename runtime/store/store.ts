/** A value now, or later from a store that asks another process. */
export type Awaitable<T> = T | Promise<T>;

/** `next` of the value, synchronously when it is there already: the memory store never costs a tick. */
export function andThen<T, R>(value: Awaitable<T>, next: (value: T) => R): Awaitable<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** One change: the key's new value, or undefined when it was deleted, cleared or evicted. */
export interface StoreChange<V> {
  readonly key: string;
  readonly value: V | undefined;
}

/**
 * The one interface of every piece of state a request or the admin API can change (DESIGN.md,
 * "State"): state-machine resources, GraphQL's objects, rate-limit buckets and breakers, runtime
 * mocks, the live settings (overrides, latency, faults, proxy, chaos, validation, the continuum,
 * the virtual clock), the fixture recorder's sequence and the admin API's logins (users created at
 * run time, refresh tokens, revocations, the login throttle). Values are plain JSON data, so a store
 * shared by several instances can hold them; what a component compiles from them (a mock's
 * matcher, an override's rule) it rebuilds from the changes it is subscribed to, whichever
 * instance made them.
 *
 * Every method may answer with a promise (a shared store asks another process); the memory store
 * answers at once, which keeps the request path synchronous. Each store has a byte budget (see
 * StoreBudget).
 */
export interface Store<V> {
  /** The store's name (STORE_NAMES), in messages and /__mock/stats. */
  readonly name: StoreName;
  get(key: string): Awaitable<V | undefined>;
  set(key: string, value: V): Awaitable<void>;
  /**
   * Reads the key's value, hands it to `decide` and stores what that returns (undefined: nothing
   * changes), as one step: no other change to the same key comes in between (a shared store makes
   * this a transaction). `decide` may change the value it is given and return it. Answers what
   * `decide` returned.
   */
  update(key: string, decide: (current: V | undefined) => V | undefined): Awaitable<V | undefined>;
  /** Whether the key had a value. */
  delete(key: string): Awaitable<boolean>;
  /** The entries whose key starts with `prefix` (all: ''), in the order their keys were first set. */
  entries(prefix?: string): Awaitable<Array<[key: string, value: V]>>;
  /** Deletes the entries under `prefix` (all: ''); answers how many there were. */
  clear(prefix?: string): Awaitable<number>;
  /** `listener` hears every change after it is made, this instance's and (shared) every other's; returns the unsubscribe. */
  subscribe(listener: (change: StoreChange<V>) => void): () => void;
  /** What the store holds now, for /__mock/stats. */
  usage(): StoreUsage;
}

export interface StoreUsage {
  readonly name: StoreName;
  readonly entries: number;
  readonly bytes: number;
  readonly max_bytes: number;
  /** Entries forgotten past the budget since the start (stores that evict). */
  readonly evicted: number;
}

/**
 * Past its budget a store either forgets its least recently used entries (state a client makes up
 * by sending requests: resources, objects, buckets), with one warning a minute, or refuses the
 * write (what a user configured: mocks, settings). An entry larger than the whole budget is always
 * refused.
 */
export interface StoreBudget<V> {
  readonly maxBytes: number;
  readonly past: 'evict' | 'refuse';
  /** The configuration key that sets maxBytes, in the warning and the refusal. */
  readonly setting: string;
  /** What the entries are, in the eviction warning ("the resources' states"). */
  readonly forgotten?: string;
  /** What becomes of a forgotten entry, in the eviction warning (", which start again in their initial state"). */
  readonly afterwards?: string;
  /** What an entry costs: its key and value as held, plus the store's bookkeeping. */
  sizeOf(key: string, value: V): number;
}

/** Every store a process opens, once each; the README's "State" table lists the same names (a test holds it to this list). */
export const STORE_NAMES = [
  'state-machines',
  'graphql-objects',
  'rate-limits',
  'circuit-breakers',
  'fault-patterns',
  'runtime-mocks',
  'settings',
  'fixture-sequences',
  'scenario-entities',
  'admin-users',
  'admin-sessions',
  'admin-revocations',
  'admin-login-throttle',
  'contract-diff-captures',
  'plugin-health',
  'ai-answers',
  'hosted-mocks',
  'tenant-usage',
] as const;

export type StoreName = (typeof STORE_NAMES)[number];

/** Opens the stores of one process: memory today; a shared implementation (Redis) is another StoreFactory. */
export interface StoreFactory {
  /** The store of that name, opened with `budget` the first time it is asked for. */
  open<V>(name: StoreName, budget: StoreBudget<V>): Store<V>;
  /** Every store opened so far. */
  opened(): Array<Store<unknown>>;
  /**
   * Settles once every command sent so far has settled and what its callers chained on it has run:
   * the servers listen after it, so that what a shared store holds (settings changed at run time
   * by any instance) is what they serve from their first request, not the configuration's values.
   * Optional: a factory whose stores answer at once has nothing to wait for.
   */
  settled?(): Promise<void>;
  /**
   * Stores of their own under `namespace` (a hosted mock's, docs/hosting.md): the same names, other
   * values, in the same memory or the same Redis. Optional: a factory without it cannot host tenants.
   */
  within?(namespace: string): StoreFactory;
}
