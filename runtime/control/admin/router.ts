import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../../common/json-depth.js';
import type { ControlRequest, ControlResponse } from './control-types.js';
import type { AdminContext } from './context.js';
import { matchesPath, parsePathPattern, pathParams, type PathPattern } from '../../match/index.js';
import { AdminError, fail } from './envelope.js';

/** What an endpoint handler gets. */
export interface AdminCall {
  ctx: AdminContext;
  req: ControlRequest;
  /** `{name}` segments of the route pattern, percent-decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The request body parsed as JSON; a malformed body is a 400. Undefined when there is none. */
  json(): unknown;
}

export interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below `/__mock/`, e.g. `mocks/{id}`. */
  path: string;
  /**
   * A GET that starts work (the spec makes smoke/run a GET): guarded and authorised as a write,
   * so that neither a page of another site nor a caller without the role can start it.
   */
  action?: boolean;
  handler(call: AdminCall): ControlResponse | Promise<ControlResponse>;
}

interface CompiledRoute extends AdminRoute {
  pattern: PathPattern;
}

export interface MatchedRoute {
  route: AdminRoute;
  params: Record<string, string>;
}

export type RouteLookup = { found: MatchedRoute } | { allowed: string[] } | undefined;

/**
 * The admin endpoint table. The spec writes paths both as `/__mock/<name>` and `/__mock/api/<name>`;
 * every endpoint answers to both.
 */
export class AdminRouter {
  private readonly routes: CompiledRoute[];

  constructor(routes: AdminRoute[]) {
    this.routes = routes.map((route) => ({ ...route, pattern: parsePathPattern(`/${route.path}`) }));
  }

  get table(): ReadonlyArray<AdminRoute> {
    return this.routes;
  }

  /** `endpoint` is the normalised path below `/__mock/` (see endpointOf). */
  lookup(method: string, endpoint: string): RouteLookup {
    const segments = endpoint.split('/');
    const allowed: string[] = [];
    for (const route of this.routes) {
      if (!matchesPath(route.pattern, segments)) continue;
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { found: { route, params: decoded(pathParams(route.pattern, segments)) } };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { allowed } : undefined;
  }
}

/** Parameters percent-decoded; a malformed escape is the caller's mistake (400). */
function decoded(params: Record<string, string>): Record<string, string> {
  for (const name of Object.keys(params)) params[name] = decode(params[name]);
  return params;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AdminError(400, `malformed percent-encoding in path segment "${segment}"`);
  }
}

/** `/__mock/api/mocks/` → `mocks`; `/__mock` → ``. */
export function endpointOf(path: string): string {
  let rest = path.slice('/__mock'.length).replace(/^\/+/, '').replace(/\/+$/, '');
  if (rest === 'api') rest = '';
  else if (rest.startsWith('api/')) rest = rest.slice(4);
  // the spec's time-travel API is versioned: /api/v2/time/set is time/set
  if (rest === 'v2/time' || rest.startsWith('v2/time/')) rest = rest.slice(3);
  return rest;
}

/**
 * Parses a JSON body once; malformed JSON, and JSON nesting deeper than MAX_JSON_DEPTH (which the
 * recursive checks and merges behind every endpoint could not take), are the caller's mistake
 * (400), never a 500.
 */
export function jsonBody(req: ControlRequest): () => unknown {
  let parsed: { value: unknown } | undefined;
  return () => {
    if (parsed !== undefined) return parsed.value;
    if (req.body === undefined || req.body.length === 0) {
      parsed = { value: undefined };
      return undefined;
    }
    try {
      parsed = { value: JSON.parse(req.body.toString('utf8')) };
    } catch (e) {
      throw new AdminError(400, `request body is not valid JSON (${e instanceof Error ? e.message : String(e)}); send Content-Type: application/json with a JSON body`);
    }
    if (nestsDeeperThan(parsed.value, MAX_JSON_DEPTH)) {
      parsed = undefined;
      throw new AdminError(400, `request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; send a flatter body`);
    }
    return parsed.value;
  };
}

export const notFound = (method: string, path: string): ControlResponse =>
  fail(404, `no admin endpoint ${method} ${path} (GET /__mock lists the endpoints)`);
