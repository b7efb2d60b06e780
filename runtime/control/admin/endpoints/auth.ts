import type { AuthResult } from '../../auth/index.js';
import { fail, ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';

function envelope(result: AuthResult) {
  if (!('error' in result)) return ok(result.data, result.status);
  const reply = fail(result.status, result.error);
  if (result.retryAfterSeconds !== undefined) reply.headers.push(['retry-after', String(result.retryAfterSeconds)]);
  return reply;
}

export const authRoutes: AdminRoute[] = [
  { method: 'POST', path: 'auth/login', handler: async (call) => envelope(await call.ctx.auth.login(call.json(), call.req.clientIp)) },
  { method: 'POST', path: 'auth/refresh', handler: async (call) => envelope(await call.ctx.auth.refresh(call.json())) },
  { method: 'POST', path: 'auth/logout', handler: async (call) => envelope(await call.ctx.auth.logout(call.req.headers, call.json())) },
  { method: 'GET', path: 'auth/me', handler: async (call) => envelope(await call.ctx.auth.me(call.req.headers)) },
  { method: 'GET', path: 'auth/users', handler: async (call) => envelope(await call.ctx.auth.listUsers()) },
  { method: 'POST', path: 'auth/users', handler: async (call) => envelope(await call.ctx.auth.createUser(call.json())) },
  { method: 'DELETE', path: 'auth/users/{username}', handler: async (call) => envelope(await call.ctx.auth.deleteUser(call.params.username)) },
];
