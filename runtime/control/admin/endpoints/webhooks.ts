import { WebhookRequestError, type WebhookSender } from '../../../callbacks/index.js';
import { bodyChecker } from '../body-schema.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';

const checkSend = bodyChecker<{ url: string; body?: unknown }>({
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: { url: { type: 'string', minLength: 1, maxLength: 2048 }, body: {} },
});

function senderOf(ctx: AdminContext): WebhookSender {
  if (ctx.webhooks === undefined) throw new AdminError(404, 'webhooks are sent by mock serve only');
  return ctx.webhooks;
}

/**
 * The served descriptions' OpenAPI 3.1 webhooks (docs/callbacks-webhooks.md): listed, and sent on
 * demand to a URL in callbacks.allowed_hosts. A send is a write: the admin's guards, the browser
 * token, the editor role and the management token apply as to every other write.
 */
export const webhookRoutes: AdminRoute[] = [
  { method: 'GET', path: 'webhooks', handler: (call) => ok({ webhooks: senderOf(call.ctx).names() }) },
  {
    method: 'POST',
    path: 'webhooks/{name}/send',
    handler: async (call) => {
      const { url, body } = checkSend(call.json(), `webhooks/${call.params.name}/send`);
      try {
        const result = await senderOf(call.ctx).send(call.params.name, url, body, 'admin');
        call.ctx.logger.info({ webhook: call.params.name, url: result.url, outcome: result.outcome }, 'admin: webhook sent');
        return ok(result);
      } catch (e) {
        if (e instanceof WebhookRequestError) throw new AdminError(e.status, `webhooks/${call.params.name}/send: ${e.message}`);
        throw e;
      }
    },
  },
];
