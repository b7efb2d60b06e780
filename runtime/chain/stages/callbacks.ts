import type { RouteCallback } from '../../callbacks/index.js';
import type { BuildRoute } from '../exchange/index.js';
import { defineStage } from '../stage.js';

/**
 * OpenAPI callbacks and custom routes' callbacks (docs/callbacks-webhooks.md): on the routes that
 * declare some, and only there, the stage passes the request on and, once the answer is written,
 * hands the exchange to the callback sender. Routes without callbacks never meet it.
 */
export const callbacksStage = defineStage({ slot: 'callbacks', kinds: ['description'] }, ({ engine, callbacks: sender }) => {
  if (engine === undefined || sender === undefined) return undefined;
  // by build: a restart swaps the build and recompiles the chain
  const tables = new WeakMap<object, ReadonlyMap<number, readonly RouteCallback[]>>();
  const callbacksOf = (route: BuildRoute): readonly RouteCallback[] | undefined => {
    const { build, callbackValues } = engine();
    let table = tables.get(build);
    if (table === undefined) {
      const byRoute = new Map<number, RouteCallback[]>();
      for (const [i, meta] of (build.callbacks ?? []).entries()) {
        const callback: RouteCallback = { meta, values: callbackValues[i] ?? [], operation: build.operations[meta.route] };
        byRoute.set(meta.route, [...(byRoute.get(meta.route) ?? []), callback]);
      }
      tables.set(build, (table = byRoute));
    }
    return table.get(route.index);
  };
  return {
    appliesTo: (route) => route !== null && callbacksOf(route) !== undefined,
    run: (ex, next) => next(ex),
    afterAnswer(ex, answer) {
      const route = ex.route;
      const list = route === null ? undefined : callbacksOf(route);
      if (route !== null && list !== undefined) sender.send(ex, answer, list, route.key);
    },
  };
});
