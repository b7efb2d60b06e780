import type { ControlHandler, ControlReply, ControlRequest, ControlResponse } from './control-types.js';
import { PatternError } from '../../../common/patterns/index.js';
import { AppliedCount, countApplied, StoreRefusal, StoreUnavailable } from '../../store/index.js';
import type { AccessPolicy } from './access-policy.js';
import { BROWSER_TOKEN_HEADER } from '../../../common/admin-credentials.js';
import { fromBrowser, type BrowserToken } from './browser-token.js';
import type { AdminContext } from './context.js';
import { corsHeaders, PREFLIGHT_HEADERS } from './cors.js';
import { authRoutes } from './endpoints/auth.js';
import { chaosRoutes } from './endpoints/chaos.js';
import { configRoutes } from './endpoints/config.js';
import { continuumRoutes } from './endpoints/continuum.js';
import { contractDiffRoutes } from './endpoints/contract-diff.js';
import { envRoutes } from './endpoints/env.js';
import { fileRoutes } from './endpoints/files.js';
import { fixtureHarRoutes } from './endpoints/fixture-har.js';
import { fixtureRoutes } from './endpoints/fixtures.js';
import { mockRoutes } from './endpoints/mocks.js';
import { overrideRoutes } from './endpoints/overrides.js';
import { smokeRoutes } from './endpoints/smoke.js';
import { stateRoutes } from './endpoints/state.js';
import { recorderRoutes } from './endpoints/recorder.js';
import { scenarioRoutes } from './endpoints/scenarios.js';
import { systemRoutes } from './endpoints/system.js';
import { timeRoutes } from './endpoints/time.js';
import { webhookRoutes } from './endpoints/webhooks.js';
import { websocketRoutes } from './endpoints/websocket.js';
import { graphqlRoutes } from './endpoints/graphql.js';
import { grpcRoutes } from './endpoints/grpc.js';
import { trafficRoutes } from './endpoints/traffic.js';
import { unmatchedRoutes } from './endpoints/unmatched.js';
import { AdminError, fail, ok } from './envelope.js';
import { webBundle } from '../../files/index.js';
import { dashboardAsset, dashboardPage } from './dashboard-page.js';
import { AdminRouter, endpointOf, jsonBody, notFound, type AdminRoute } from './router.js';

/** Paths the spec writes below /api/ rather than /__mock/ (the time-travel API as /api/v2/time/, scenarios as /api/scenarios/). */
const SPEC_API = /^\/api\/(chaos|recorder|scenarios|v2\/time)(\/|$)/;

const DISABLED = 'the admin API is disabled (admin.disable_api, --disable-admin-api or MOCK_ADMIN_API_ENABLED=false); turn it on to use this endpoint';

export const ADMIN_ROUTES: AdminRoute[] = [
  ...systemRoutes,
  ...trafficRoutes,
  ...unmatchedRoutes,
  ...contractDiffRoutes,
  ...configRoutes,
  ...envRoutes,
  ...fileRoutes,
  ...mockRoutes,
  ...fixtureHarRoutes,
  ...fixtureRoutes,
  ...smokeRoutes,
  ...overrideRoutes,
  ...chaosRoutes,
  ...recorderRoutes,
  ...scenarioRoutes,
  ...stateRoutes,
  ...timeRoutes,
  ...webhookRoutes,
  ...continuumRoutes,
  ...websocketRoutes,
  ...graphqlRoutes,
  ...grpcRoutes,
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
  /** Serve the web dashboard at `/` (standalone) or at the mount path (embedded), its files under `<page>/assets/`; none on the mock server otherwise. */
  pagePath?: string;
  /** Which Host names and browser origins may talk to it. */
  access: AccessPolicy;
  /** The process's browser token: the dashboard page carries it, browser writes must send it. */
  token: BrowserToken;
  /** Where a browser finds the token (`the admin page at / of the admin port`), for the 403 that asks for it. */
  tokenSource: string;
  /** Served by the mock server itself (admin.embedded): its own origin is the admin page's, though a mock port. */
  embedded?: boolean;
}

/**
 * The admin API as a control handler: the Host and Origin guards, CORS, the envelope, the
 * browser token and authorisation, then the endpoint. Mounted on the admin server, or on the
 * HTTP mock server (embedded; or the management subset).
 */
export function createAdminApi(ctx: AdminContext, options: AdminApiOptions): ControlHandler {
  const router = new AdminRouter(options.routes);
  // the bundle's files are read now, so the allowlist is fixed before the first request
  if (options.pagePath !== undefined) webBundle('dashboard');
  return async (req) => {
    const origin = req.headers.origin;
    const refused = refuseForeign(options.access, options.embedded, req);
    if (refused !== undefined) return withCors(refused, undefined);
    // the page carries the token: other origins read it only when named exactly (access-policy.ts)
    const readable = origin !== undefined && (!isPage(options, req.path) || options.access.pageReadableBy(origin));
    return withCors(await dispatch(ctx, router, options, req), readable ? origin : undefined);
  };
}

/** On an admin write's answer from a worker of several: how many workers held the change when it answered. */
export const WORKERS_APPLIED_HEADER = 'x-mock-workers-applied';

const isRead = (method: string): boolean => method === 'GET' || method === 'HEAD';

const isPage = (options: AdminApiOptions, path: string): boolean => options.pagePath !== undefined && (path === options.pagePath || path === `${options.pagePath}/`);

/**
 * Before anything runs: a Host that is not this machine's or an allowed name (DNS rebinding; the
 * health check excepted, which load balancers probe under any name), and an Origin that is not
 * allowed (a page of another site), get 403.
 */
export function refuseForeign(access: AccessPolicy, embedded: boolean | undefined, req: Pick<ControlRequest, 'method' | 'path' | 'headers'>): ControlReply | undefined {
  const host = req.headers.host;
  const origin = req.headers.origin;
  const health = isRead(req.method) && (req.path === '/__mock' || req.path.startsWith('/__mock/')) && endpointOf(req.path) === 'health';
  if (!health && !access.hostAllowed(host)) {
    return fail(403, `Host "${host}" may not reach the admin API (DNS rebinding guard): use localhost or an IP address, or add the name to admin.allowed_hosts in mock.yaml`);
  }
  if (origin !== undefined && !access.originAllowed(origin, host, embedded)) {
    return fail(403, `requests from origin ${origin} are not allowed (cross-site request guard): add it to admin.cors.allowed_origins in mock.yaml`);
  }
  return undefined;
}

/** Media types of JSON: `application/json` and `application/<anything>+json`, parameters aside. */
const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json$/;

/**
 * A write's body must be declared JSON: text/plain, form and multipart bodies are what a page of
 * another site can send without a preflight, so refusing them means no write the server did not agree to.
 */
function unsupportedBody(req: ControlRequest): ControlResponse | undefined {
  if (isRead(req.method) || req.method === 'OPTIONS') return undefined;
  const type = req.headers['content-type'];
  const hasBody = (req.body !== undefined && req.body.length > 0) || req.oversized !== undefined;
  if (type === undefined ? !hasBody : JSON_MEDIA.test(type.split(';')[0].trim().toLowerCase())) return undefined;
  const given = type === undefined ? 'no Content-Type' : `Content-Type: ${type}`;
  return fail(415, `${req.method} ${req.path} takes a JSON body: send it with Content-Type: application/json (got ${given}; with curl, add -H 'Content-Type: application/json')`);
}

/**
 * A write (or an action) from a browser page must carry the browser token, which only the admin page holds: a
 * page planted where the Origin rules allow (a local port) cannot write. Tools send no Origin and
 * need none; they keep to the documented headers (Authorization, X-Mock-Management-Token).
 */
function missingBrowserToken({ token, tokenSource }: AdminApiOptions, method: string, req: ControlRequest): ControlResponse | undefined {
  if (isRead(method) || method === 'OPTIONS' || !fromBrowser(req.headers) || token.matches(req.headers[BROWSER_TOKEN_HEADER])) return undefined;
  return fail(
    403,
    `${req.method} ${req.path} from a browser page needs the header X-Mock-Admin-Token with this server's browser token, which ${tokenSource} carries in <meta name="mock-admin-token">; tools that send no Origin header need no token`,
  );
}

async function dispatch(ctx: AdminContext, router: AdminRouter, options: AdminApiOptions, req: ControlRequest): Promise<ControlResponse> {
  const { path } = req;
  const page = options.pagePath;
  const disabled = options.apiDisabled === true;
  if (page !== undefined && isRead(req.method)) {
    if (isPage(options, path)) return dashboardPage(page, options.token.value, req.headers.host, disabled);
    const asset = path.startsWith(`${page}/assets/`) ? dashboardAsset(path.slice(page.length + 8), req.headers['if-none-match']) : undefined;
    if (asset !== undefined) return asset;
  }
  if (path !== '/__mock' && !path.startsWith('/__mock/')) {
    // the spec's Chaos and recorder API paths, on the admin's own port (on the mock's port they would shadow the mocked API)
    if (page === '' && SPEC_API.test(path)) return dispatch(ctx, router, options, { ...req, path: `/__mock${path}` });
    return notFound(req.method, path);
  }
  if (req.method === 'OPTIONS') return { status: 204, headers: [...PREFLIGHT_HEADERS], body: '' };
  const unsupported = unsupportedBody(req);
  if (unsupported !== undefined) return unsupported;
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
    const { route, params } = lookup.found;
    const method = route.action === true ? 'POST' : req.method;
    const tokenMissing = missingBrowserToken(options, method, req);
    if (tokenMissing !== undefined) return tokenMissing;
    const decision = await ctx.auth.authorize({ method, endpoint, headers: req.headers });
    if (!decision.ok) return fail(decision.status, decision.error);
    const call = (): Promise<ControlResponse> | ControlResponse => route.handler({ ctx, req, params, query: new URLSearchParams(req.query), json: jsonBody(req) });
    // a change is held by every worker before its write answers (mock serve --workers): say by how many.
    // Counted with AsyncLocalStorage only there: on Node 20 it hooks every promise of the process once used
    const count = ctx.cluster === undefined || isRead(method) ? undefined : new AppliedCount();
    const response = await (count === undefined ? call() : countApplied(count, call));
    const applied = count === undefined || response.status >= 300 ? undefined : ctx.cluster?.applied(count.fewest);
    return applied === undefined ? response : { ...response, headers: [...response.headers, [WORKERS_APPLIED_HEADER, String(applied)]] };
  } catch (e) {
    if (e instanceof AdminError) return fail(e.status, e.message);
    if (e instanceof PatternError) return fail(400, `a pattern in the request ${e.message}`);
    // a change the shared store could not take is not made (nothing half-applied): say why
    if (e instanceof StoreUnavailable) return fail(503, `${e.message}; the change was not made, try again once the store is back`);
    if (e instanceof StoreRefusal) return fail(e.full ? 409 : 413, e.message);
    ctx.logger.error({ err: e, method: req.method, path }, 'admin request failed');
    return fail(500, `the admin API failed to answer ${req.method} ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function withCors(response: ControlResponse, origin: string | undefined): ControlResponse {
  return { ...response, headers: [...response.headers, ...corsHeaders(origin)] };
}
