/**
 * What mutations changed, keyed by type and id (graphql-tools' MockStore idea): objects created,
 * fields set, objects deleted. Everything not in here is derived from (seed, type, id, field), so
 * the store only holds what clients wrote; empty, it costs one branch per object.
 */
export interface StoreEntry {
  readonly type: string;
  readonly id: unknown;
  /** Fields written by mutations, as given (input values; `<field>Id` keys name related objects). */
  readonly fields: Record<string, unknown>;
  /** Created by a mutation (listed by root list fields), not only patched. */
  created: boolean;
  deleted: boolean;
}

export interface StoreStats {
  objects: number;
  created: number;
  deleted: number;
}

/** The largest number of objects kept; past it the oldest patches are forgotten (created objects first kept). */
const MAX_OBJECTS = 100_000;

export class MockStore {
  private readonly entries = new Map<string, StoreEntry>();
  private readonly createdByType = new Map<string, StoreEntry[]>();
  /** True while nothing was ever written (the hot path checks this before any lookup). */
  empty = true;
  /** Counts writes: values computed before a write are not reused after it. */
  generation = 0;
  private creations = 0;

  private static key(type: string, id: unknown): string {
    return `${type}\u0000${String(id)}`;
  }

  get(type: string, id: unknown): StoreEntry | undefined {
    return this.empty ? undefined : this.entries.get(MockStore.key(type, id));
  }

  /** Merges `fields` into the object's stored fields (creating the entry); `created` marks it as made by a create mutation. */
  write(type: string, id: unknown, fields: Record<string, unknown>, created: boolean): StoreEntry {
    const key = MockStore.key(type, id);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      if (this.entries.size >= MAX_OBJECTS) this.evictOne();
      entry = { type, id, fields: Object.create(null) as Record<string, unknown>, created: false, deleted: false };
      this.entries.set(key, entry);
    }
    for (const name of Object.keys(fields)) entry.fields[name] = fields[name];
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
    const list = this.createdByType.get(type);
    if (list === undefined) return NONE;
    return list.some((e) => e.deleted) ? list.filter((e) => !e.deleted) : list;
  }

  /** A number for the next created object's id: counts creations since the last reset. */
  nextCreation(): number {
    return ++this.creations;
  }

  clear(): void {
    this.entries.clear();
    this.createdByType.clear();
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
    return { objects: this.entries.size, created, deleted };
  }

  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      if (entry.created) continue;
      this.entries.delete(key);
      return;
    }
    const [key, entry] = this.entries.entries().next().value as [string, StoreEntry];
    this.entries.delete(key);
    const list = this.createdByType.get(entry.type);
    if (list !== undefined) list.splice(list.indexOf(entry), 1);
  }
}

const NONE: readonly StoreEntry[] = [];
