import { randomUUID } from 'node:crypto';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { newAjv } from '../../../common/ajv.js';
import { andThen, type Awaitable, type Store, type StoreBudget } from '../../store/index.js';

/** One collection of a scenario's vbr_entities: items keyed by `id`, served at `path` and `path/{id}`. */
export interface EntityOptions {
  name: string;
  /** Where the collection is served; default `/<name>`. */
  path?: string;
  /** JSON Schema every stored item must satisfy (created, replaced or merged). */
  schema?: Record<string, unknown>;
  seed_data?: Array<Record<string, unknown>>;
}

export type Item = Record<string, unknown>;

/** What a request to an entity path asks: the collection, or one item of it. */
export interface EntityRequest {
  entity: string;
  id?: string;
}

export type EntityResult = { status: number; body?: unknown } | { problem: 'not-found' | 'conflict' | 'invalid'; entity: string; id?: string; why?: string };

const DEFAULT_ENTITY_STORE_MB = 16;
export const entityBudget = (maxBytes = DEFAULT_ENTITY_STORE_MB * 1024 * 1024): StoreBudget<Item> => ({
  maxBytes,
  past: 'refuse',
  setting: 'the scenario entities (16 MiB)',
  sizeOf: (key, value) => 64 + 2 * key.length + 2 * JSON.stringify(value).length,
});

/** The marker a collection is seeded under, so that emptying it is not undone by the next start. */
const SEEDED = '\u0000seeded';

/**
 * The stateful collections of the scenario in use (docs/scenarios.md, "Entities"): list, create, read,
 * replace, merge and delete items, all kept in the `scenario-entities` store (memory, Redis or the
 * cluster's, as state.store says), seeded once from seed_data.
 */
export class EntityService {
  private readonly collections: Array<{ name: string; path: string }>;

  constructor(
    entities: readonly EntityOptions[],
    private readonly store: Store<Item>,
  ) {
    this.collections = entities.map((e) => ({ name: e.name, path: (e.path ?? `/${e.name}`).replace(/\/+$/, '') }));
    this.seeds = new Map(entities.map((e) => [e.name, e.seed_data ?? []]));
    // compiled at start, and Ajv loaded, only when some entity has a schema
    const withSchema = entities.filter((e) => e.schema !== undefined);
    const ajv = withSchema.length === 0 ? undefined : newAjv({ allErrors: false, strict: false, validateFormats: false });
    this.validators = new Map(withSchema.map((e) => [e.name, (ajv as NonNullable<typeof ajv>).compile(e.schema as object)]));
  }

  private readonly seeds: Map<string, Array<Record<string, unknown>>>;
  private readonly validators: Map<string, ValidateFunction>;

  /** Why `item` breaks its entity's schema, or undefined. */
  private invalid(entity: string, item: Item): string | undefined {
    const validate = this.validators.get(entity);
    if (validate === undefined || validate(item)) return undefined;
    return describe(validate.errors?.[0]);
  }

  get size(): number {
    return this.collections.length;
  }

  /** Seeds every collection that was never seeded (a shared store seeded by another instance is left alone). */
  async seed(): Promise<void> {
    for (const { name } of this.collections) {
      const marker = `${name}/${SEEDED}`;
      if ((await this.store.get(marker)) !== undefined) continue;
      for (const item of this.seeds.get(name) ?? []) {
        if (item.id !== undefined) await this.store.set(`${name}/${String(item.id)}`, item);
      }
      await this.store.set(marker, {});
    }
  }

  /** The entity path `path` names, if any. */
  match(path: string): EntityRequest | undefined {
    for (const c of this.collections) {
      if (path === c.path) return { entity: c.name };
      if (path.startsWith(`${c.path}/`)) {
        const rest = path.slice(c.path.length + 1);
        if (rest !== '' && !rest.includes('/')) return { entity: c.name, id: decodeURIComponent(rest) };
      }
    }
    return undefined;
  }

  handle(method: string, request: EntityRequest, body: unknown): Awaitable<EntityResult> | undefined {
    const { entity, id } = request;
    const key = (itemId: string): string => `${entity}/${itemId}`;
    if (id === undefined) {
      if (method === 'GET') return andThen(this.list(entity), (items) => ({ status: 200, body: items }));
      if (method !== 'POST') return undefined;
      if (!isItem(body)) return { problem: 'invalid', entity, why: 'the body must be a JSON object' };
      // a nested Awaitable is still one: a promise resolves the promise it is given
      return andThen(this.list(entity), (items): Awaitable<EntityResult> => {
        const newId = body.id ?? nextId(items);
        const item = { ...body, id: newId };
        const why = this.invalid(entity, item);
        if (why !== undefined) return { problem: 'invalid', entity, why };
        return andThen(
          this.store.update(key(String(newId)), (current) => (current === undefined ? item : undefined)),
          (stored): EntityResult => (stored === undefined ? { problem: 'conflict', entity, id: String(newId) } : { status: 201, body: item }),
        );
      }) as Awaitable<EntityResult>;
    }
    if (method === 'GET') return andThen(this.store.get(key(id)), (item): EntityResult => (item === undefined ? { problem: 'not-found', entity, id } : { status: 200, body: item }));
    if (method === 'DELETE') return andThen(this.store.delete(key(id)), (had): EntityResult => (had ? { status: 204 } : { problem: 'not-found', entity, id }));
    if (method !== 'PUT' && method !== 'PATCH') return undefined;
    if (!isItem(body)) return { problem: 'invalid', entity, id, why: 'the body must be a JSON object' };
    // PUT replaces (and creates), PATCH merges into an item that exists; the id stays the path's
    const original = typeof body.id === 'number' && String(body.id) === id ? body.id : id;
    let created = false;
    let why: string | undefined;
    return andThen(
      this.store.update(key(id), (current) => {
        if (method === 'PATCH' && current === undefined) return undefined;
        const item = method === 'PATCH' ? { ...current, ...body, id: (current as Item).id } : { ...body, id: current?.id ?? original };
        // an item the schema refuses is not stored: the current one stays
        why = this.invalid(entity, item);
        if (why !== undefined) return undefined;
        created = current === undefined;
        return item;
      }),
      (item): EntityResult => (why !== undefined ? { problem: 'invalid', entity, id, why } : item === undefined ? { problem: 'not-found', entity, id } : { status: created ? 201 : 200, body: item }),
    );
  }

  private list(entity: string): Awaitable<Item[]> {
    return andThen(this.store.entries(`${entity}/`), (entries) => entries.filter(([key]) => !key.endsWith(SEEDED)).map(([, item]) => item));
  }
}

const isItem = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The next integer when every id is one, else a UUID. */
function nextId(items: Item[]): number | string {
  const ids = items.map((item) => item.id);
  if (ids.every((id) => typeof id === 'number' && Number.isInteger(id))) return Math.max(0, ...(ids as number[])) + 1;
  return randomUUID();
}

function describe(error: ErrorObject | undefined): string {
  if (error === undefined) return 'the item breaks the schema';
  const at = error.instancePath === '' ? 'the item' : error.instancePath.slice(1).replaceAll('/', '.');
  if (error.keyword === 'required') return `${at} needs field "${(error.params as { missingProperty: string }).missingProperty}"`;
  return `${at} ${error.message ?? 'breaks the schema'}`;
}
