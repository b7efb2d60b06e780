import { GraphQLError } from 'graphql';
import { PROBLEMS } from '../../../common/errors.js';
import { andThen, MemoryStore, settingsBudget, StoreRefusal, type Awaitable, type Store, type StoreBudget, type StoreChange } from '../../store/index.js';
import { GRAPHQL_CODES } from './codes.js';
import { valueBytes } from './value-bytes.js';

/**
 * What mutations changed, keyed by type and id (graphql-tools' MockStore idea): objects created,
 * fields set, objects deleted. Everything not in here is derived from (seed, type, id, field), so
 * the store only holds what clients wrote; empty, it costs one branch per object. Plain data, as
 * the `graphql-objects` store holds it.
 */
export interface StoreEntry {
  readonly type: string;
  readonly id: unknown;
  /** Fields written by mutations, as given (input values; `<field>Id` keys name related objects). A null-prototype object. */
  readonly fields: Record<string, unknown>;
  /** Created by a mutation (listed by root list fields), not only patched. */
  readonly created: boolean;
  readonly deleted: boolean;
}

export interface StoreStats {
  objects: number;
  created: number;
  deleted: number;
  /** The estimate the budget counts (valueBytes of the fields, the key, ENTRY_OVERHEAD). */
  bytes: number;
  max_bytes: number;
}

/** An entry's own objects besides its fields: the entry, its fields object, the LRU's slots. */
const ENTRY_OVERHEAD = 256;

/**
 * The `graphql-objects` store's budget (graphql.max_store_mb): objects are made up by clients, so
 * past it the least recently written are forgotten (mocked again from the seed).
 */
export const graphqlObjectsBudget = (maxBytes: number): StoreBudget<StoreEntry> => ({
  maxBytes,
  past: 'evict',
  setting: 'graphql.max_store_mb',
  forgotten: "the GraphQL mutation store's objects",
  afterwards: ' and are mocked again',
  sizeOf: (key, entry) => ENTRY_OVERHEAD + 2 * key.length + valueBytes(entry.fields),
});

/**
 * The objects mutations wrote, in the `graphql-objects` store (runtime/store), which counts bytes,
 * not objects (an object of one 9 MB field is not one of 100,000 small ones) and forgets the least
 * recently written past graphql.max_store_mb; a write that would make one object larger than the
 * whole budget is refused with MOCK_ERR_GRAPHQL_STORE_OBJECT_TOO_LARGE and changes nothing.
 * Resolvers read synchronously, so the objects are also held here, kept in step with the store's
 * changes (whichever instance made them), with each type's created objects in creation order.
 * Keys are strings and fields a null-prototype object, so no id or field name (`__proto__`,
 * `constructor`) reaches a prototype. `namespace` keeps the objects of one schema apart from
 * another's in a shared store.
 */
export class MockStore {
  private readonly objects = new Map<string, StoreEntry>();
  /** Keys of each type's created objects, in creation order. */
  private readonly createdByType = new Map<string, Set<string>>();
  /** True while nothing was ever written (the hot path checks this before any lookup). */
  empty = true;
  /** Counts writes: values computed before a write are not reused after it. */
  generation = 0;
  /** Creations since the last reset (they seed created objects' ids): a key of the settings store. */
  private readonly creationsKey: string;

  constructor(
    private readonly store: Store<StoreEntry> = new MemoryStore('graphql-objects', graphqlObjectsBudget(64 * 1024 * 1024)),
    private readonly settings: Store<unknown> = new MemoryStore('settings', settingsBudget),
    private readonly namespace = '',
    /** Where a write a shared store refused after the mutation answered is said. */
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    store.subscribe((change) => this.follow(change));
    this.creationsKey = `graphql-creations:${namespace}`;
    // what the store holds already (another worker's or instance's mutations) is read from the first request on
    andThen(store.entries(`${namespace}\u0000`), (held) => {
      for (const [key, value] of held) if (!this.objects.has(key)) this.follow({ key, value });
    });
  }

  private key(type: string, id: unknown): string {
    return `${this.namespace}\u0000${type}\u0000${String(id)}`;
  }

  get(type: string, id: unknown): StoreEntry | undefined {
    return this.empty ? undefined : this.objects.get(this.key(type, id));
  }

  /** Merges `fields` into the object's stored fields (creating the entry); `created` marks it as made by a create mutation. */
  write(type: string, id: unknown, fields: Record<string, unknown>, created: boolean): StoreEntry {
    return this.put(type, id, fields, created, false);
  }

  delete(type: string, id: unknown): StoreEntry {
    return this.put(type, id, {}, false, true);
  }

  /** Objects of `type` created by mutations and not deleted, oldest first. */
  createdOf(type: string): readonly StoreEntry[] {
    if (this.empty) return NONE;
    const keys = this.createdByType.get(type);
    if (keys === undefined) return NONE;
    const out: StoreEntry[] = [];
    for (const key of keys) {
      const entry = this.objects.get(key);
      if (entry !== undefined && !entry.deleted) out.push(entry);
    }
    return out;
  }

  /**
   * A number for the next created object's id: counts creations since the last reset, in one step
   * of the store (Store.update), so that two workers or instances creating at once get two numbers.
   */
  nextCreation(): Awaitable<number> {
    return andThen(
      this.settings.update(this.creationsKey, (n) => ((n as number | undefined) ?? 0) + 1),
      (n) => n as number,
    );
  }

  clear(): void {
    void this.store.clear(`${this.namespace}\u0000`);
    void this.settings.set(this.creationsKey, 0);
    this.empty = true;
    this.generation++;
  }

  stats(): StoreStats {
    let created = 0;
    let deleted = 0;
    for (const entry of this.objects.values()) {
      if (entry.created) created++;
      if (entry.deleted) deleted++;
    }
    const { bytes, max_bytes } = this.store.usage();
    return { objects: this.objects.size, created, deleted, bytes, max_bytes };
  }

  private put(type: string, id: unknown, fields: Record<string, unknown>, created: boolean, deleted: boolean): StoreEntry {
    const key = this.key(type, id);
    const existing = this.objects.get(key);
    const merged = Object.assign(Object.create(null) as Record<string, unknown>, existing?.fields);
    for (const name of Object.keys(fields)) merged[name] = fields[name];
    const entry: StoreEntry = { type, id, fields: merged, created: created || existing?.created === true, deleted };
    let written: Awaitable<void>;
    try {
      written = this.store.set(key, entry);
    } catch (e) {
      if (!(e instanceof StoreRefusal)) throw e;
      throw new GraphQLError(PROBLEMS.MOCK_ERR_GRAPHQL_STORE_OBJECT_TOO_LARGE.detail({ type, bytes: e.bytes, max: e.maxBytes }), {
        extensions: { code: GRAPHQL_CODES.STORE_OBJECT_TOO_LARGE },
      });
    }
    if (written instanceof Promise) {
      // a shared store answers later: the object is held here at once, so that the mutation's answer and the next query read it
      this.follow({ key, value: entry });
      written.catch((e: unknown) => this.warn(`GraphQL: the ${type} ${String(id)} a mutation wrote was not kept: ${e instanceof Error ? e.message : String(e)}`));
    }
    return entry;
  }

  /** A change of the store, made here or by another instance: the objects held here follow it. */
  private follow({ key, value }: StoreChange<StoreEntry>): void {
    if (!key.startsWith(`${this.namespace}\u0000`)) return;
    this.generation++;
    const old = this.objects.get(key);
    if (value === undefined) {
      this.objects.delete(key);
      if (old?.created) this.createdByType.get(old.type)?.delete(key);
      return;
    }
    this.objects.set(key, value);
    this.empty = false;
    if (value.created && old?.created !== true) {
      let keys = this.createdByType.get(value.type);
      if (keys === undefined) this.createdByType.set(value.type, (keys = new Set()));
      keys.add(key);
    }
  }
}

const NONE: readonly StoreEntry[] = [];
