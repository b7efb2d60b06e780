import { bodyChecker } from '../body-schema.js';
import { ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';

const checkSet = bodyChecker<{ key: string; value: string }>({
  type: 'object',
  additionalProperties: false,
  required: ['key', 'value'],
  properties: { key: { type: 'string', minLength: 1 }, value: { type: 'string' } },
});

export const envRoutes: AdminRoute[] = [
    { method: 'GET', path: 'env', handler: ({ ctx }) => ok(ctx.env.values()) },
    {
      method: 'POST',
      path: 'env',
      handler: async (call) => {
        const { key, value } = checkSet(call.json(), 'env');
        return ok({ message: await call.ctx.env.set(key, value) });
      },
    },
];
