import { AdminError, ok } from '../envelope.js';
import type { AdminCall, AdminRoute } from '../router.js';

type StoreResult = { ok: true; mock: unknown } | { ok: false; status: number; error: string };

/** The answer once the store holds the change (every instance sharing it has it then). */
async function unwrap(result: StoreResult | Promise<StoreResult>, status = 200) {
  const settled = await result;
  if (!settled.ok) throw new AdminError(settled.status, settled.error);
  return ok(settled.mock, status);
}

function found(call: AdminCall, id: string) {
  const mock = call.ctx.live.mocks.get(id);
  if (mock === undefined) throw new AdminError(404, `no mock with id "${id}" (GET /__mock/api/mocks lists them)`);
  return mock;
}

/**
 * A create's or replacement's body, refused before it is parsed when it is over
 * admin.limits.max_mock_bytes (or, adding, when admin.limits.max_mocks are kept already).
 */
function mockBody(call: AdminCall, adding: boolean): { input: unknown; bytes: number } {
  const bytes = call.req.body?.length ?? 0;
  const refused = call.ctx.live.mocks.refusal(bytes, adding);
  if (refused !== undefined) throw new AdminError(refused.status, refused.error);
  return { input: call.json(), bytes };
}

/** PUT and DELETE also accept the id in the body or the query, for clients that address the collection. */
function idOf(call: AdminCall): string | undefined {
  const fromQuery = call.query.get('id');
  if (fromQuery !== null && fromQuery !== '') return fromQuery;
  const body = call.json();
  const id = body !== null && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function replace(call: AdminCall, id: string, { input, bytes }: { input: unknown; bytes: number }) {
  return unwrap(call.ctx.live.mocks.replace(id, input, bytes));
}

async function remove(call: AdminCall, id: string) {
  const mock = found(call, id);
  await call.ctx.live.mocks.delete(id);
  return ok(mock);
}

/** `/__mock/mocks` and `/__mock/api/mocks` (the router maps both here). */
export const mockRoutes: AdminRoute[] = [
  { method: 'GET', path: 'mocks', handler: ({ ctx }) => ok(ctx.live.mocks.list()) },
  {
    method: 'POST',
    path: 'mocks',
    handler: (call) => {
      const { input, bytes } = mockBody(call, true);
      return unwrap(call.ctx.live.mocks.create(input, bytes), 201);
    },
  },
  {
    method: 'PUT',
    path: 'mocks',
    handler: (call) => {
      const body = mockBody(call, false);
      const id = idOf(call);
      if (id === undefined) throw new AdminError(400, 'PUT /__mock/api/mocks needs the mock id: in the body ("id") or use PUT /__mock/api/mocks/{id}');
      found(call, id);
      return replace(call, id, body);
    },
  },
  {
    method: 'DELETE',
    path: 'mocks',
    handler: async (call) => {
      const id = idOf(call);
      if (id !== undefined) return remove(call, id);
      const deleted = await call.ctx.live.mocks.clear();
      return ok({ message: `deleted ${deleted} mocks`, deleted_count: deleted });
    },
  },
  { method: 'GET', path: 'mocks/{id}', handler: (call) => ok(found(call, call.params.id)) },
  {
    method: 'PUT',
    path: 'mocks/{id}',
    handler: (call) => {
      found(call, call.params.id);
      return replace(call, call.params.id, mockBody(call, false));
    },
  },
  { method: 'DELETE', path: 'mocks/{id}', handler: (call) => remove(call, call.params.id) },
];
