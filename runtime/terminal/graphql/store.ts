import { GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import { PROBLEMS } from '../../../common/errors.js';
import { GRAPHQL_CODES } from './codes.js';
import { valueBytes } from './value-bytes.js';

/**
 * What mutations changed, keyed by type and id (graphql-tools' MockStore idea): objects created,
 * fields set, objects deleted. Everything not in here is derived from (seed, type, id, field), so
 * the store only holds what clients wrote; empty, it costs one branch per object.
 */
export interface StoreEntry {
  readonly type: string;
  readonly id: unknown;
  /** Fields written by mutations, as given (input values; `<field>Id` keys name related objects). A null-prototype object. */
  readonly fields: Record<string, unknown>;
  /** Created by a mutation (listed by root list fields), not only patched. */
  created: boolean;
  deleted: boolean;
  /** Forgotten for the budget: listed no more. */
  evicted: boolean;
}

export interface StoreStats {
  objects: number;
  created: number;
  deleted: number;
  /** The estimate the budget counts (valueBytes of the fields, the key, ENTRY_OVERHEAD). */
  bytes: number;
  max_bytes: number;
}

export interface StoreOptions {
  /** graphql.max_store_mb in bytes. */
  maxBytes: number;
  /** A warning line (the caller keeps it to one a minute). */
  warn: (message: string) => void;
}

/** An entry's own objects besides its fields: the entry, its fields object, the LRU's slots. */
const ENTRY_OVERHEAD = 256;

/**
 * The store counts bytes, not objects (an object of one 9 MB field is not one of 100,000 small
 * ones): lru-cache's maxSize with a size per entry (valueBytes, an estimate erring high), the least
 * recently read or written object forgotten first, with a warning; a write that would make one
 * object larger than the whole budget is refused with MOCK_ERR_GRAPHQL_STORE_OBJECT_TOO_LARGE and
 * changes nothing. Keys are strings in a Map and fields a null-prototype object, so no id or
 * field name (`__proto__`, `constructor`) reaches a prototype.
 */
export class MockStore {
  private readonly entries: LRUCache<string, StoreEntry>;
  private readonly createdByType = new Map<string, StoreEntry[]>();
  /** Types whose created list holds evicted entries, compacted when next listed. */
  private readonly stale = new Set<string>();
  /** True while nothing was ever written (the hot path checks this before any lookup). */
  empty = true;
  /** Counts writes: values computed before a write are not reused after it. */
  generation = 0;
  private creations = 0;

  constructor(private readonly options: StoreOptions) {
    this.entries = new LRUCache<string, StoreEntry>({
      maxSize: options.maxBytes,
      dispose: (entry, _key, reason) => {
        if (reason === 'evict') this.evicted(entry);
      },
    });
  }

  private static key(type: string, id: unknown): string {
    return `${type}\u0000${String(id)}`;
  }

  get(type: string, id: unknown): StoreEntry | undefined {
    return this.empty ? undefined : this.entries.get(MockStore.key(type, id));
  }

  /** Merges `fields` into the object's stored fields (creating the entry); `created` marks it as made by a create mutation. */
  write(type: string, id: unknown, fields: Record<string, unknown>, created: boolean): StoreEntry {
    const key = MockStore.key(type, id);
    const existing = this.entries.get(key);
    const merged = Object.assign(Object.create(null) as Record<string, unknown>, existing?.fields);
    for (const name of Object.keys(fields)) merged[name] = fields[name];
    const size = ENTRY_OVERHEAD + 2 * key.length + valueBytes(merged);
    if (size > this.options.maxBytes) {
      throw new GraphQLError(PROBLEMS.MOCK_ERR_GRAPHQL_STORE_OBJECT_TOO_LARGE.detail({ type, bytes: size, max: this.options.maxBytes }), {
        extensions: { code: GRAPHQL_CODES.STORE_OBJECT_TOO_LARGE },
      });
    }
    const entry: StoreEntry = existing ?? { type, id, fields: merged, created: false, deleted: false, evicted: false };
    if (existing !== undefined) {
      for (const name of Object.keys(fields)) (existing.fields as Record<string, unknown>)[name] = fields[name];
    }
    this.entries.set(key, entry, { size });
    if (created && !entry.created) {
      entry.created = true;
      let list = this.createdByType.get(type);
      if (list === undefined) this.createdByType.set(type, (list = []));
      list.push(entry);
    }
    entry.deleted = false;
    this.empty = false;
    this.generation++;
    return entry;
  }

  delete(type: string, id: unknown): StoreEntry {
    const entry = this.write(type, id, {}, false);
    entry.deleted = true;
    this.generation++;
    return entry;
  }

  /** Objects of `type` created by mutations and not deleted, oldest first. */
  createdOf(type: string): readonly StoreEntry[] {
    if (this.empty) return NONE;
    let list = this.createdByType.get(type);
    if (list === undefined) return NONE;
    if (this.stale.delete(type)) {
      list = list.filter((e) => !e.evicted);
      this.createdByType.set(type, list);
    }
    return list.some((e) => e.deleted) ? list.filter((e) => !e.deleted) : list;
  }

  /** A number for the next created object's id: counts creations since the last reset. */
  nextCreation(): number {
    return ++this.creations;
  }

  clear(): void {
    this.entries.clear();
    this.createdByType.clear();
    this.stale.clear();
    this.empty = true;
    this.creations = 0;
    this.generation++;
  }

  stats(): StoreStats {
    let created = 0;
    let deleted = 0;
    for (const entry of this.entries.values()) {
      if (entry.created) created++;
      if (entry.deleted) deleted++;
    }
    return { objects: this.entries.size, created, deleted, bytes: this.entries.calculatedSize, max_bytes: this.options.maxBytes };
  }

  private evicted(entry: StoreEntry): void {
    entry.evicted = true;
    if (entry.created) this.stale.add(entry.type);
    const mb = Math.round(this.options.maxBytes / (1024 * 1024));
    this.options.warn(
      `GraphQL mutation store: ${mb} MB (graphql.max_store_mb) is full; forgot the least recently used object ${entry.type} ${JSON.stringify(String(entry.id)).slice(0, 80)} (raise graphql.max_store_mb in mock.yaml to keep more)`,
    );
  }
}

const NONE: readonly StoreEntry[] = [];
