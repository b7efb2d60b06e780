import type { BuildRoute, Exchange } from '../../chain/exchange/index.js';
import type { Router } from '../../chain/index.js';
import type { WsRoutes, WsTarget } from '../../terminal/websocket/index.js';

/** The route of the paths no websocket.routes entry claims (they play websocket.replay_file, an echo, or the upstream). */
export const OTHER_PATHS = '(other paths)';

/**
 * An upgrade's route: one per websocket.routes entry (`WS /chat/{room}`), and one for every path
 * none claims, so that per-route chaos state and the statistics key on the route, never on a
 * client's path, and WebSocket routes never share counts with the HTTP mock's `GET` routes.
 * The session's behaviour is found with the route, once.
 */
export class WsRouter implements Router {
  readonly routes: readonly BuildRoute[];
  private readonly targets = new WeakMap<Exchange, WsTarget>();

  constructor(private readonly table: WsRoutes, paths: readonly string[]) {
    this.routes = [...paths, OTHER_PATHS].map((path, index) => ({ key: `WS ${path}`, method: 'WS', path, index, tags: [], behaviour: null }));
  }

  route(ex: Exchange): void {
    const target = this.table.find(ex.path);
    this.targets.set(ex, target);
    const index = target.index === -1 ? this.routes.length - 1 : target.index;
    ex.route = this.routes[index];
    ex.match = { kind: 'operation', index };
  }

  /** What plays on the connection of a routed upgrade. */
  targetOf(ex: Exchange): WsTarget {
    return this.targets.get(ex) ?? this.table.find(ex.path);
  }
}
