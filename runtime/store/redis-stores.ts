import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { MockError } from '../../common/errors.js';
import { redactUrlCredentials, redactUrlsInText } from '../../common/redacted.js';
import { RedisStore } from './redis-store.js';
import { PendingCommands } from './pending-commands.js';
import type { Store, StoreBudget, StoreFactory, StoreName } from './store.js';

/** Longest a command waits for Redis before it fails: a lost Redis never hangs a request. */
const COMMAND_TIMEOUT_MS = 2000;

/**
 * ioredis (not node-redis): Lua scripts as named commands (EVALSHA with the script loaded once),
 * automatic resubscription after a reconnect, a retryStrategy for the back-off, and
 * enableOfflineQueue false, so that a command sent while Redis is away fails at once instead of
 * waiting in an unbounded queue.
 */
function connectionOptions(): RedisOptions {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    connectTimeout: COMMAND_TIMEOUT_MS,
    // 100 ms, 200 ms, ... then every 2 s, for as long as Redis is away: it serves again once Redis is back
    retryStrategy: (times) => Math.min(times * 100, 2000),
  };
}

/**
 * The stores of one process in one Redis (state.store redis), shared with every instance that has
 * the same Redis and key prefix. Two connections: one for commands, one subscribed to the changes
 * channel of each opened store, whose messages reach the store's listeners.
 */
export class RedisStores implements StoreFactory {
  private readonly stores = new Map<StoreName, RedisStore<unknown>>();
  private readonly byChannel: Map<string, RedisStore<unknown>>;
  private readonly instance: string;
  /** Commands sent and not settled yet (settled()). */
  private readonly pending: PendingCommands;

  private constructor(
    private readonly commands: Redis,
    private readonly subscriber: Redis,
    private readonly keyPrefix: string,
    private readonly warn: (message: string) => void,
    /** A factory `within` made shares its parent's: one pair of connections, one listener of the channels. */
    shared?: { byChannel: Map<string, RedisStore<unknown>>; instance: string; pending: PendingCommands },
  ) {
    this.byChannel = shared?.byChannel ?? new Map();
    this.instance = shared?.instance ?? randomUUID();
    this.pending = shared?.pending ?? new PendingCommands();
    if (shared === undefined) subscriber.on('message', (channel: string, message: string) => this.byChannel.get(channel)?.hear(message));
  }

  /** Connects both connections; a Redis that cannot be reached is one MOCK_ERR_STATE_STORE_UNREACHABLE line naming the URL (password redacted). */
  static async connect(url: string, keyPrefix: string, warn: (message: string) => void): Promise<RedisStores> {
    const commands = new Redis(url, connectionOptions());
    // the subscriber queues its SUBSCRIBEs: they are sent again on every reconnect
    const subscriber = new Redis(url, { ...connectionOptions(), enableOfflineQueue: true });
    let started = false;
    let lost = false;
    let last: Error | undefined;
    const said = (e: Error): void => {
      last = e;
      if (lost || !started) return;
      lost = true;
      warn(`state.store redis: lost ${redactUrlCredentials(url)} (${redactUrlsInText(e.message)}); requests that need the shared state answer 503 MOCK_ERR_STATE_STORE_UNAVAILABLE until it is back, reconnecting`);
    };
    commands.on('error', said);
    subscriber.on('error', () => undefined);
    try {
      await commands.connect();
      await subscriber.connect();
      await commands.ping();
    } catch (e) {
      commands.disconnect();
      subscriber.disconnect();
      const reason = redactUrlsInText((last ?? (e as Error)).message);
      throw new MockError('MOCK_ERR_STATE_STORE_UNREACHABLE', `state.redis_url: cannot reach ${redactUrlCredentials(url)} (${reason}); start Redis there, or set state.redis_url (MOCK_REDIS_URL) to a Redis that runs, or state.store memory`);
    }
    started = true;
    commands.on('ready', () => {
      if (lost) warn(`state.store redis: ${redactUrlCredentials(url)} is back`);
      lost = false;
    });
    return new RedisStores(commands, subscriber, keyPrefix, warn);
  }

  open<V>(name: StoreName, budget: StoreBudget<V>): Store<V> {
    const open = this.stores.get(name);
    if (open !== undefined) return open as unknown as Store<V>;
    const store = new RedisStore<V>(name, budget, this.commands, this.keyPrefix, this.instance, this.warn, (command) => this.pending.track(command));
    this.stores.set(name, store as RedisStore<unknown>);
    this.byChannel.set(store.channel, store as RedisStore<unknown>);
    // settled() waits for it too: a change made before the subscription holds would be missed
    const subscribed = this.subscriber.subscribe(store.channel).catch(() => undefined);
    this.pending.track(subscribed);
    return store;
  }

  opened(): Array<Store<unknown>> {
    return [...this.stores.values()];
  }

  settled(): Promise<void> {
    return this.pending.settled();
  }

  /** A tenant's stores, under `<prefix>tenant:<namespace>:` of the same Redis and connections. */
  within(namespace: string): StoreFactory {
    const { byChannel, instance, pending } = this;
    return new RedisStores(this.commands, this.subscriber, `${this.keyPrefix}tenant:${namespace}:`, this.warn, { byChannel, instance, pending });
  }

  /** Closes both connections (the server's close). */
  async close(): Promise<void> {
    this.commands.disconnect();
    this.subscriber.disconnect();
  }
}
