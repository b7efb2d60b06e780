import type { ControlHandler, ControlRequest, ControlResponse } from '../http/index.js';
import type { AdminContext } from './context.js';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from './cors.js';
import { authRoutes } from './endpoints/auth.js';
import { configRoutes } from './endpoints/config.js';
import { envRoutes } from './endpoints/env.js';
import { fileRoutes } from './endpoints/files.js';
import { mockRoutes } from './endpoints/mocks.js';
import { overrideRoutes } from './endpoints/overrides.js';
import { systemRoutes } from './endpoints/system.js';
import { trafficRoutes } from './endpoints/traffic.js';
import { AdminError, fail, ok } from './envelope.js';
import { indexPage } from './index-page.js';
import { AdminRouter, endpointOf, jsonBody, notFound, type AdminRoute } from './router.js';

const DISABLED = 'the admin API is disabled (admin.disable_api, --disable-admin-api or MOCK_ADMIN_API_ENABLED=false); turn it on to use this endpoint';

export const ADMIN_ROUTES: AdminRoute[] = [
  ...systemRoutes,
  ...trafficRoutes,
  ...configRoutes,
  ...envRoutes,
  ...fileRoutes,
  ...mockRoutes,
  ...overrideRoutes,
  ...authRoutes,
];

/** What the HTTP mock server answers under /__mock when the admin API is not embedded in it. */
const MANAGEMENT = new Set(['health', 'stats', 'routes', 'coverage', 'mocks', 'mocks/{id}']);
export const MANAGEMENT_ROUTES: AdminRoute[] = ADMIN_ROUTES.filter((route) => MANAGEMENT.has(route.path));

export interface AdminApiOptions {
  /** The endpoints served. */
  routes: AdminRoute[];
  /** admin.disable_api: other endpoints answer 404 saying how to turn the API on. */
  apiDisabled?: boolean;
  /** Serve the index page at `/` (standalone) or at the mount path (embedded); none on the mock server otherwise. */
  pagePath?: string;
}

/**
 * The admin API as a control handler: CORS, the envelope, authorisation, then the endpoint.
 * Mounted on the admin server, or on the HTTP mock server (embedded; or the management subset).
 */
export function createAdminApi(ctx: AdminContext, options: AdminApiOptions): ControlHandler {
  const router = new AdminRouter(options.routes);
  const page = options.pagePath;
  return async (req) => withCors(await dispatch(ctx, router, options.apiDisabled === true, page, req));
}

async function dispatch(ctx: AdminContext, router: AdminRouter, disabled: boolean, page: string | undefined, req: ControlRequest): Promise<ControlResponse> {
  const path = req.path;
  if (page !== undefined && (path === page || path === `${page}/`) && (req.method === 'GET' || req.method === 'HEAD')) {
    return indexPage(ctx.version, router.table, disabled);
  }
  if (path !== '/__mock' && !path.startsWith('/__mock/')) return notFound(req.method, path);
  if (req.method === 'OPTIONS') return { status: 204, headers: PREFLIGHT_HEADERS, body: '' };
  if (req.oversized !== undefined) return fail(413, `request body exceeds ${req.oversized} bytes`);
  try {
    const endpoint = endpointOf(path);
    if (endpoint === '') return ok(router.table.map((r) => ({ method: r.method, path: `/__mock/${r.path}` })));
    const lookup = router.lookup(req.method, endpoint);
    if (lookup === undefined) return disabled ? fail(404, DISABLED) : notFound(req.method, path);
    if ('allowed' in lookup) {
      const reply = fail(405, `${path} does not accept ${req.method} (allowed: ${lookup.allowed.join(', ')})`);
      reply.headers.push(['allow', lookup.allowed.join(', ')]);
      return reply;
    }
    const decision = await ctx.auth.authorize({ method: req.method, endpoint, headers: req.headers });
    if (!decision.ok) return fail(decision.status, decision.error);
    const { route, params } = lookup.found;
    return await route.handler({ ctx, req, params, query: new URLSearchParams(req.query), json: jsonBody(req) });
  } catch (e) {
    if (e instanceof AdminError) return fail(e.status, e.message);
    ctx.logger.error({ err: e, method: req.method, path }, 'admin request failed');
    return fail(500, `the admin API failed to answer ${req.method} ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function withCors(response: ControlResponse): ControlResponse {
  if (response.headers.some(([name]) => name === 'access-control-allow-origin')) return response;
  return { ...response, headers: [...response.headers, ...CORS_HEADERS] };
}
