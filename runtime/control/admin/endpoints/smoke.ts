import { runSmoke, SmokeUnreachableError } from '../../../../common/fixtures/index.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';
import { storeOf } from './fixtures.js';

/** Addresses that listen everywhere are reached on loopback. */
const ANY = new Set(['0.0.0.0', '::', '[::]']);

/** The HTTP mock server of this process: smoke runs go to it and nowhere else (a target from a request would make the admin API a proxy). */
function ownTarget(ctx: AdminContext): string {
  const info = ctx.registry.find('HTTP');
  if (info === undefined || !info.running) throw new AdminError(503, 'no HTTP mock server is running in this process to run the smoke tests against (mock smoke --target <url> runs them against any server)');
  const at = info.address.lastIndexOf(':');
  const host = info.address.slice(0, at);
  return `${ctx.registry.secure('HTTP') ? 'https' : 'http'}://${ANY.has(host) ? '127.0.0.1' : host}:${info.address.slice(at + 1)}`;
}

/** `/__mock/smoke/run`: replays the smoke-test fixtures against this process's HTTP mock server (docs/fixtures.md, "mock smoke"). */
export const smokeRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'smoke/run',
    action: true,
    handler: async ({ ctx }) => {
      const store = storeOf(ctx);
      const target = ownTarget(ctx);
      try {
        const report = await runSmoke(store.list(), target);
        const { total, passed, failed } = report.summary;
        const message = total === 0 ? 'no smoke-test fixtures (metadata.smoke_test "true")' : `${passed} of ${total} smoke tests passed${failed > 0 ? `, ${failed} failed` : ''}`;
        ctx.logger.info(report.summary, `admin: smoke run: ${message}`);
        return ok({ message, ...report });
      } catch (e) {
        if (e instanceof SmokeUnreachableError) throw new AdminError(502, `smoke run: ${e.message}`);
        throw e;
      }
    },
  },
];
