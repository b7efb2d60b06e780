import { nearestRoutes, type MissCandidate } from '../../../match/index.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';
import { listRoutes } from '../views.js';

const DEFAULT_LIMIT = 50;

/**
 * `GET /__mock/unmatched`: requests no route, runtime mock or custom route claimed (and that got a
 * 404), newest first, each with the routes it came closest to and every field each one failed on.
 */
export const unmatchedRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'unmatched',
    handler: ({ ctx, query }) => {
      const limit = query.get('limit') ?? `${DEFAULT_LIMIT}`;
      if (!/^\d+$/.test(limit) || Number(limit) < 1) throw new AdminError(400, `unmatched: limit must be a positive integer (got "${limit}")`);
      const entries = ctx.requestLog.recent({ limit: Number(limit), unmatched: true });
      const candidates = missCandidates(ctx);
      return ok(entries.map((entry) => ({ entry, closest: nearestRoutes({ method: entry.method, path: entry.path, headers: entry.headers, query: queryMap(entry.query ?? '') }, candidates) })));
    },
  },
];

/** Every route of the description and mock.yaml, and every enabled runtime mock with its conditions. */
function missCandidates(ctx: AdminContext): MissCandidate[] {
  const mocks = ctx.live.mocks
    .list()
    .filter((mock) => mock.enabled)
    .map((mock) => mock.missCandidate());
  const routes = listRoutes(ctx)
    .filter((listed) => listed.info.source !== 'mock')
    .map(({ info }) => ({ method: info.method, path: info.path, source: info.source }));
  return [...mocks, ...routes];
}

function queryMap(query: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(query)) map.set(name, [...(map.get(name) ?? []), value]);
  return map;
}
