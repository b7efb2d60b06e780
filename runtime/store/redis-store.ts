import type { Redis } from 'ioredis';
import { WarningGate } from '../../common/warning-gate.js';
import { DELETE_SCRIPT, SET_SCRIPT } from './redis-scripts.js';
import { evictionWarning } from './eviction-warning.js';
import { OptimisticUpdates } from './optimistic-updates.js';
import { StoreRefusal } from './store-refusal.js';
import { StoreUnavailable } from './store-unavailable.js';
import type { Store, StoreBudget, StoreChange, StoreName, StoreUsage } from './store.js';

/** The commands the store defines on its connection (ioredis sends them as EVALSHA, loading the script once). */
interface ScriptedRedis extends Redis {
  mockSet(...args: string[]): Promise<Array<number | string>>;
  mockDelete(...args: string[]): Promise<number>;
}

/** Defines the store's scripts on a connection, once. */
export function defineScripts(redis: Redis): void {
  if ('mockSet' in redis) return;
  redis.defineCommand('mockSet', { numberOfKeys: 0, lua: SET_SCRIPT });
  redis.defineCommand('mockDelete', { numberOfKeys: 0, lua: DELETE_SCRIPT });
}

/**
 * A store kept in Redis (state.store redis), shared by every instance with the same Redis and key
 * prefix. Values are JSON; every write is one Lua script (redis-scripts.ts) that also keeps the
 * byte budget in Redis, for all instances together. update is optimistic (OptimisticUpdates), its
 * compare-and-set a script that stores only if the entry is still what was read.
 * Every method answers a promise; a change is announced to this instance's listeners once Redis
 * holds it, and to the other instances' through pub/sub (RedisStores routes their messages here).
 */
export class RedisStore<V> implements Store<V> {
  private readonly redis: ScriptedRedis;
  private readonly prefix: string;
  private readonly listeners = new Set<(change: StoreChange<V>) => void>();
  private readonly updates: OptimisticUpdates<V>;
  private readonly warnings: WarningGate;
  private bytes = 0;
  private count = 0;
  private evicted = 0;
  private unreported = 0;

  constructor(
    readonly name: StoreName,
    private readonly budget: StoreBudget<V>,
    redis: Redis,
    keyPrefix: string,
    private readonly instance: string,
    warn: (message: string) => void,
    /** Told of every command sent (RedisStores.settled). */
    private readonly track: (command: Promise<unknown>) => void = () => undefined,
  ) {
    defineScripts(redis);
    this.redis = redis as ScriptedRedis;
    this.prefix = `${keyPrefix}${name}:`;
    this.warnings = new WarningGate(warn);
    this.updates = new OptimisticUpdates(name, {
      read: (key) => this.reach(this.redis.get(`${this.prefix}e:${key}`)),
      write: (key, value, expected) => this.write(key, value, expected),
    });
  }

  /** The pub/sub channel of the store's changes. */
  get channel(): string {
    return `${this.prefix}changes`;
  }

  async get(key: string): Promise<V | undefined> {
    const json = await this.reach(this.redis.get(`${this.prefix}e:${key}`));
    return json === null ? undefined : (JSON.parse(json) as V);
  }

  async set(key: string, value: V): Promise<void> {
    await this.write(key, value, undefined);
  }

  update(key: string, decide: (current: V | undefined) => V | undefined): Promise<V | undefined> {
    return this.updates.update(key, decide);
  }

  async delete(key: string): Promise<boolean> {
    const had = (await this.reach(this.redis.mockDelete(this.prefix, key, this.instance))) === 1;
    if (had) this.announce(key, undefined);
    return had;
  }

  async entries(prefix = ''): Promise<Array<[string, V]>> {
    const keys = (await this.reach(this.redis.zrange(`${this.prefix}order`, 0, -1))).filter((key) => key.startsWith(prefix));
    if (keys.length === 0) return [];
    const values = await this.reach(this.redis.mget(keys.map((key) => `${this.prefix}e:${key}`)));
    const out: Array<[string, V]> = [];
    keys.forEach((key, i) => {
      const json = values[i];
      if (json !== null && json !== undefined) out.push([key, JSON.parse(json) as V]);
    });
    return out;
  }

  async clear(prefix = ''): Promise<number> {
    const keys = (await this.reach(this.redis.zrange(`${this.prefix}order`, 0, -1))).filter((key) => key.startsWith(prefix));
    let removed = 0;
    for (const key of keys) if (await this.delete(key)) removed++;
    return removed;
  }

  subscribe(listener: (change: StoreChange<V>) => void): () => void {
    const own = (change: StoreChange<V>): void => listener(change);
    this.listeners.add(own);
    return () => void this.listeners.delete(own);
  }

  usage(): StoreUsage {
    return { name: this.name, entries: this.count, bytes: this.bytes, max_bytes: this.budget.maxBytes, evicted: this.evicted };
  }

  /** A message of the store's channel: another instance's change (this instance's were announced when made). */
  hear(message: string): void {
    const change = JSON.parse(message) as { from: string; key: string; value?: string };
    if (change.from === this.instance) return;
    this.announce(change.key, change.value === undefined ? undefined : (JSON.parse(change.value) as V));
  }

  /** Stores `value`; with `expected` (the JSON read, '' for none), only if the entry still holds it. Answers whether it stored. */
  private async write(key: string, value: V, expected: string | undefined): Promise<boolean> {
    const size = this.budget.sizeOf(key, value);
    const { maxBytes, past, setting } = this.budget;
    const json = JSON.stringify(value);
    const [status, bytes, count, ...victims] = await this.reach(this.redis.mockSet(this.prefix, key, json, String(size), String(maxBytes), past, this.instance, expected ?? '', expected === undefined ? '0' : '1'));
    if (status === -3) return false;
    if (status === -1) throw new StoreRefusal(this.name, key, size, maxBytes, setting, false);
    if (status === -2) throw new StoreRefusal(this.name, key, Number(bytes), maxBytes, setting, true);
    this.bytes = Number(bytes);
    this.count = Number(count);
    this.announce(key, value);
    for (const victim of victims) this.announce(String(victim), undefined);
    if (victims.length > 0) {
      this.evicted += victims.length;
      this.unreported += victims.length;
    }
    if (this.unreported > 0) this.reportEvictions();
    return true;
  }

  /** A command's answer; any failure of Redis itself (lost, timed out, not writable) is StoreUnavailable. */
  private async reach<T>(command: Promise<T>): Promise<T> {
    this.track(command);
    try {
      return await command;
    } catch (e) {
      throw new StoreUnavailable(this.name, (e as Error).message);
    }
  }

  private announce(key: string, value: V | undefined): void {
    for (const listener of this.listeners) listener({ key, value });
  }

  private reportEvictions(): void {
    if (!this.warnings.due()) return;
    this.warnings.warn(evictionWarning(this.name, this.budget as StoreBudget<never>, this.unreported));
    this.unreported = 0;
  }
}
