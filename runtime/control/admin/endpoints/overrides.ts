import { AdminError, ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';

export const overrideRoutes: AdminRoute[] = [
  { method: 'GET', path: 'overrides', handler: ({ ctx }) => ok(ctx.live.overrides.rules) },
  {
    method: 'PUT',
    path: 'overrides',
    handler: async (call) => {
      const result = await call.ctx.live.overrides.replace(call.json());
      // an invalid set changes nothing: the previous rules stay
      if (!result.ok) throw new AdminError('status' in result ? result.status : 400, `${result.error} (the previous ${call.ctx.live.overrides.rules.length} rules stay)`);
      call.ctx.logger.info({ rules: result.rules.length }, 'admin: override rules replaced');
      return ok(result.rules);
    },
  },
];
