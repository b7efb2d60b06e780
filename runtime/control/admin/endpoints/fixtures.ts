import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FixtureFile } from '../../../../common/fixtures/index.js';
import type { FixtureStore } from '../../../chain/fixtures/index.js';
import { bodyChecker } from '../body-schema.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminCall, AdminRoute } from '../router.js';

/** The spec's listing item. */
export function listingItem(store: FixtureStore, loaded: FixtureFile): Record<string, unknown> {
  const { fixture } = loaded;
  return {
    id: loaded.id,
    protocol: loaded.protocol,
    method: fixture.fingerprint.method,
    path: fixture.fingerprint.path,
    saved_at: fixture.timestamp ?? new Date(loaded.mtimeMs).toISOString(),
    file_size: loaded.size,
    file_path: store.shown(loaded.file),
    fingerprint: fixture.fingerprint,
    metadata: fixture.metadata,
  };
}

export function storeOf(ctx: AdminContext): FixtureStore {
  if (ctx.fixtures === undefined) throw new AdminError(404, 'this server has no fixture folder: fixtures are served by mock serve (core.fixtures.dir)');
  return ctx.fixtures;
}

function found(store: FixtureStore, id: string): FixtureFile {
  const loaded = store.get(id);
  if (loaded === undefined) throw new AdminError(404, `no fixture with id "${id}" (GET /__mock/fixtures lists them)`);
  return loaded;
}

function fixtureBody(store: FixtureStore, call: AdminCall, what: string) {
  const parsed = store.parse(call.json());
  if (typeof parsed === 'string') throw new AdminError(400, `${what}: ${parsed}`);
  return parsed;
}

async function saved<T>(what: string, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (e) {
    throw new AdminError(500, `${what}: cannot write the fixture file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

const checkDelete = bodyChecker<{ fixture_id: string }>({
  type: 'object',
  additionalProperties: false,
  required: ['fixture_id'],
  properties: { fixture_id: { type: 'string', minLength: 1 } },
});

const checkBulk = bodyChecker<{ fixture_ids: string[] }>({
  type: 'object',
  additionalProperties: false,
  required: ['fixture_ids'],
  properties: { fixture_ids: { type: 'array', maxItems: 100_000, items: { type: 'string' } } },
});

const checkSettings = bodyChecker<{ record_enabled?: boolean; replay_enabled?: boolean; record_get_only?: boolean; sequence_end?: 'repeat_last' | 'cycle' | 'fall_through' }>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    record_enabled: { type: 'boolean' },
    replay_enabled: { type: 'boolean' },
    record_get_only: { type: 'boolean' },
    sequence_end: { type: 'string', enum: ['repeat_last', 'cycle', 'fall_through'] },
  },
});

function settingsOf(store: FixtureStore) {
  const s = store.settings;
  return { dir: store.dir, record_enabled: s.record, replay_enabled: s.replay, record_get_only: s.recordGetOnly, sequence_end: s.sequenceEnd, max_sequence: s.maxSequence, total_fixtures: store.size };
}

async function remove(ctx: AdminContext, id: string): Promise<FixtureFile> {
  const store = storeOf(ctx);
  found(store, id);
  const deleted = await saved(`delete ${id}`, () => store.delete(id));
  ctx.logger.info({ id }, 'admin: fixture deleted');
  return deleted as FixtureFile;
}

/** `/__mock/fixtures…`: the fixture folder's files (docs/record-replay.md, "The admin API"). */
export const fixtureRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'fixtures',
    handler: async ({ ctx, query }) => {
      const store = storeOf(ctx);
      try {
        await store.checkReadable();
      } catch (e) {
        throw new AdminError(500, `Failed to load fixtures: ${store.root} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
      const method = query.get('method')?.toUpperCase();
      const smoke = query.get('smoke_test');
      const items = store
        .list()
        .filter((f) => method === undefined || f.fixture.fingerprint.method === method)
        .filter((f) => smoke === null || (f.fixture.metadata.smoke_test === 'true') === (smoke === 'true'));
      return ok(items.map((f) => listingItem(store, f)));
    },
  },
  {
    method: 'POST',
    path: 'fixtures',
    handler: async (call) => {
      const store = storeOf(call.ctx);
      const fixture = fixtureBody(store, call, 'POST /__mock/fixtures');
      const created = await saved('POST /__mock/fixtures', () => store.create(fixture));
      call.ctx.logger.info({ file: created.file }, 'admin: fixture created');
      return ok(listingItem(store, created), 201);
    },
  },
  {
    method: 'GET',
    path: 'fixtures/download',
    handler: async ({ ctx, query }) => {
      const store = storeOf(ctx);
      const id = query.get('id');
      if (id === null || id === '') throw new AdminError(400, 'GET /__mock/fixtures/download needs ?id=<fixture id> (GET /__mock/fixtures lists them)');
      const loaded = found(store, id);
      const text = await readFile(loaded.file, 'utf8').catch((e: NodeJS.ErrnoException) => {
        throw new AdminError(404, `fixture ${id} cannot be read (${e.code ?? e.message})`);
      });
      const name = path.basename(loaded.file).replace(/[^\w.-]/g, '_');
      return { status: 200, headers: [['content-type', 'application/json; charset=utf-8'], ['content-disposition', `attachment; filename="${name}"`]], body: text };
    },
  },
  {
    method: 'POST',
    path: 'fixtures/reload',
    handler: ({ ctx }) => {
      const store = storeOf(ctx);
      const problems = store.reload();
      return ok({ loaded: store.size, problems: problems.map((p) => ({ file: store.shown(p.file), field: p.field, message: p.message })) });
    },
  },
  { method: 'GET', path: 'fixtures/settings', handler: ({ ctx }) => ok(settingsOf(storeOf(ctx))) },
  {
    method: 'PUT',
    path: 'fixtures/settings',
    handler: (call) => {
      const store = storeOf(call.ctx);
      const body = checkSettings(call.json(), 'PUT /__mock/fixtures/settings');
      store.configure({ record: body.record_enabled, replay: body.replay_enabled, recordGetOnly: body.record_get_only, sequenceEnd: body.sequence_end });
      call.ctx.logger.info(body, 'admin: fixture settings changed');
      return ok(settingsOf(store));
    },
  },
  {
    method: 'POST',
    path: 'fixtures/delete',
    handler: async (call) => {
      const { fixture_id } = checkDelete(call.json(), 'POST /__mock/fixtures/delete');
      const deleted = await remove(call.ctx, fixture_id);
      return ok({ message: `deleted fixture ${fixture_id} (${path.basename(deleted.file)})` });
    },
  },
  {
    method: 'POST',
    path: 'fixtures/delete-bulk',
    handler: async (call) => {
      const { fixture_ids } = checkBulk(call.json(), 'POST /__mock/fixtures/delete-bulk');
      const errors: Array<{ fixture_id: string; error: string }> = [];
      let deleted = 0;
      for (const id of fixture_ids) {
        try {
          await remove(call.ctx, id);
          deleted++;
        } catch (e) {
          errors.push({ fixture_id: id, error: (e as Error).message });
        }
      }
      return ok({ deleted_count: deleted, total_requested: fixture_ids.length, errors });
    },
  },
  {
    method: 'GET',
    path: 'fixtures/{id}',
    handler: ({ ctx, params }) => {
      const store = storeOf(ctx);
      const loaded = found(store, params.id);
      return ok({ ...listingItem(store, loaded), fixture: loaded.fixture });
    },
  },
  {
    method: 'PUT',
    path: 'fixtures/{id}',
    handler: async (call) => {
      const store = storeOf(call.ctx);
      found(store, call.params.id);
      const fixture = fixtureBody(store, call, `PUT /__mock/fixtures/${call.params.id}`);
      const replaced = (await saved(`PUT /__mock/fixtures/${call.params.id}`, () => store.replace(call.params.id, fixture))) as FixtureFile;
      call.ctx.logger.info({ file: replaced.file }, 'admin: fixture replaced');
      return ok(listingItem(store, replaced));
    },
  },
  {
    method: 'DELETE',
    path: 'fixtures/{id}',
    handler: async (call) => ok(listingItem(storeOf(call.ctx), await remove(call.ctx, call.params.id))),
  },
  {
    method: 'GET',
    path: 'smoke',
    handler: ({ ctx }) => {
      const store = storeOf(ctx);
      const smoke = store.list().filter((f) => f.fixture.metadata.smoke_test === 'true');
      return ok(smoke.map((f) => ({ id: f.id, name: f.fixture.metadata.name ?? `${f.fixture.fingerprint.method} ${f.fixture.fingerprint.path}`, method: f.fixture.fingerprint.method, path: f.fixture.fingerprint.path, status_code: f.fixture.status_code, file_path: store.shown(f.file) })));
    },
  },
];
