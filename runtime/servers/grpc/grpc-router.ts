import type { BuildRoute, Exchange } from '../../chain/exchange/index.js';
import type { Router } from '../../chain/index.js';

/** One route per served method (`POST /routeguide.RouteGuide/GetFeature`), so per-route chaos state keys on the method. */
export class GrpcRouter implements Router {
  readonly routes: readonly BuildRoute[];
  private readonly byPath: Map<string, BuildRoute>;

  constructor(paths: readonly string[]) {
    this.routes = paths.map((path, index) => ({ key: `POST ${path}`, method: 'POST', path, index, tags: [], behaviour: null }));
    this.byPath = new Map(this.routes.map((route) => [route.path, route]));
  }

  /** The route of a method (`/routeguide.RouteGuide/GetFeature`), for calls that reach it by another path (the HTTP bridge). */
  routeOf(path: string): BuildRoute | undefined {
    return this.byPath.get(path);
  }

  route(ex: Exchange): void {
    const route = this.byPath.get(ex.path);
    if (route === undefined) return;
    ex.route = route;
    ex.match = { kind: 'operation', index: route.index };
  }
}
