import type { IrCustomRoute, IrOperation, IrRouteBehaviour } from './types.js';
import { MockError } from '../../common/errors.js';

/** A route the table can point at: operations first, then custom routes (the build's route order). */
interface Target {
  index: number;
  method: string;
  /** Parameter names erased: `/v1/pets/{}`. */
  shape: string;
  key: string;
}

const shapeOf = (path: string): string => {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.replace(/\{[^}]*\}/g, '{}');
};

/**
 * Lowers `core.routes` (checked against the configuration schema already) into the per-route
 * table: each entry names a route by its path as the description writes it, mount prefix
 * included (`/v1/pets/{petId}`; parameter names need not agree), and optionally its method (all
 * methods of the path when absent). Entries that reach the same route merge, later ones winning
 * field by field. An entry that reaches no route fails the build, naming the closest paths.
 */
export function lowerRouteBehaviour(raw: unknown[], operations: IrOperation[], customRoutes: IrCustomRoute[]): IrRouteBehaviour[] {
  const targets: Target[] = [
    ...operations.map((op) => ({ method: op.method, path: op.path })),
    ...customRoutes.map((route) => ({ method: route.method, path: route.path })),
  ].map(({ method, path }, index) => ({ index, method, shape: shapeOf(path), key: `${method} ${path}` }));
  const table = new Map<number, IrRouteBehaviour>();
  raw.forEach((entry, i) => {
    const where = `core.routes[${i}]`;
    const rule = entry as { path: string; method?: string; latency?: IrRouteBehaviour['latency']; fault_injection?: IrRouteBehaviour['fault_injection'] };
    const method = rule.method?.toUpperCase();
    const shape = shapeOf(rule.path);
    const reached = targets.filter((t) => t.shape === shape && (method === undefined || t.method === method || t.method === '*'));
    if (reached.length === 0) {
      const samePath = targets.filter((t) => t.shape === shape).map((t) => t.key);
      const hint = samePath.length > 0 ? `the path has ${samePath.join(', ')}` : `routes are named by their path as the description writes it, mount prefix included (e.g. ${targets[0]?.key ?? 'GET /v1/pets/{id}'})`;
      throw new MockError('MOCK_ERR_CONFIG_INVALID', `mock.yaml: ${where} (${method ?? 'any method'} ${rule.path}) matches no route: ${hint}`);
    }
    for (const target of reached) {
      const current = table.get(target.index) ?? { route: target.index, sources: [] };
      table.set(target.index, {
        ...current,
        sources: [...current.sources, where],
        ...(rule.latency === undefined ? {} : { latency: rule.latency }),
        ...(rule.fault_injection === undefined ? {} : { fault_injection: rule.fault_injection }),
      });
    }
  });
  return [...table.values()].sort((a, b) => a.route - b.route);
}
