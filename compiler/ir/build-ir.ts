import type { Ir, IrOperation, IrSpec, IrWebhook } from './types.js';
import type { OpenApi3 } from '../load/index.js';
import { SchemaRegistry } from './normalize-schema.js';
import { lowerOperations } from './operations.js';
import { lowerCustomRoutes } from './custom-routes.js';
import { lowerRouteBehaviour } from './route-behaviour.js';
import { lowerWebhooks } from './callbacks.js';
import { apiKeySchemes } from './api-keys.js';
import { normalizeBasePath, serverBasePath } from './mount.js';
import { MockError } from '../../common/errors.js';

export interface IrInput {
  source: string;
  basePath?: string;
  description: OpenApi3;
}

/**
 * Lowers loaded descriptions plus mock.yaml's custom routes (`http.routes`) and per-route
 * behaviour (`core.routes`) into one IR; colliding operations are an error.
 */
export function buildIr(name: string, inputs: IrInput[], routes: unknown[], routeRules: unknown[] = []): Ir {
  const registry = new SchemaRegistry();
  const specs: IrSpec[] = [];
  const operations: IrOperation[] = [];
  const warnings: string[] = [];
  const webhooks: IrWebhook[] = [];
  inputs.forEach((input, specIndex) => {
    const { document, dialect } = input.description;
    const info = (document.info ?? {}) as Record<string, unknown>;
    const basePath = input.basePath === undefined ? serverBasePath(document) : normalizeBasePath(input.basePath);
    specs.push({ source: input.source, title: String(info.title ?? ''), version: String(info.version ?? ''), dialect, basePath, apiKeys: apiKeySchemes(document) });
    registry.use(document, String(specIndex), input.source);
    for (const webhook of lowerWebhooks(document, warnings, (schema) => registry.normalize(schema))) if (!webhooks.some((w) => w.name === webhook.name)) webhooks.push(webhook);
    for (const op of lowerOperations({ document, registry, specIndex, basePath, dialect, warnings })) operations.push({ ...op, index: operations.length });
  });
  rejectCollisions(specs, operations);
  const customRoutes = lowerCustomRoutes(routes);
  const callbacks: Ir['callbacks'] = [
    ...operations.flatMap((op) => (op.callbacks ?? []).map((c) => ({ route: op.index, ...c }))),
    ...customRoutes.flatMap((r) => (r.callbacks ?? []).map((c) => ({ route: operations.length + r.index, ...c }))),
  ];
  return {
    name,
    specs,
    definitions: sortKeys(registry.definitions),
    operations,
    routes: customRoutes,
    behaviours: lowerRouteBehaviour(routeRules, operations, customRoutes),
    callbacks,
    webhooks,
    warnings: [...warnings, ...registry.warnings],
  };
}

/** `/pets/{id}` and `/pets/{petId}` are the same route: compare paths with parameter names erased. */
function rejectCollisions(specs: IrSpec[], operations: IrOperation[]): void {
  const seen = new Map<string, IrOperation>();
  for (const op of operations) {
    const shape = `${op.method} ${op.path.replace(/\{[^}]*\}/g, '{}')}${op.queryMatch === undefined ? '' : `?${new URLSearchParams(op.queryMatch).toString()}`}`;
    const other = seen.get(shape);
    if (other) {
      throw new MockError(
        'MOCK_ERR_ROUTE_COLLISION',
        `${op.method} ${op.path} is defined twice: in ${specs[other.spec].source} (${other.method} ${other.specPath}) and in ${specs[op.spec].source} (${op.method} ${op.specPath}); mount one description under another base path (specs[].base_path)`,
      );
    }
    seen.set(shape, op);
  }
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(record).sort().map((k) => [k, record[k]]));
}
