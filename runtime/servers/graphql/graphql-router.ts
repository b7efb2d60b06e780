import type { BuildRoute, Exchange } from '../../chain/exchange/index.js';
import type { Router } from '../../chain/index.js';

/**
 * The GraphQL server's one route: its path (with or without a trailing slash), whatever the method
 * (the terminal refuses methods GraphQL over HTTP does not use, after CORS answered preflights).
 * Every other path reaches the terminal unrouted and gets a 404 there.
 */
export class GraphqlRouter implements Router {
  readonly routes: readonly BuildRoute[];
  private readonly route0: BuildRoute;

  constructor(private readonly path: string) {
    this.route0 = { key: `POST ${path}`, method: 'POST', path, index: 0, tags: [], behaviour: null };
    this.routes = [this.route0];
  }

  route(ex: Exchange): void {
    const { path } = ex;
    if (path === this.path || (path.length === this.path.length + 1 && path.endsWith('/') && path.startsWith(this.path))) {
      ex.route = this.route0;
      ex.match = { kind: 'operation', index: 0 };
    }
  }
}
