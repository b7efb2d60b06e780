import { isMockError, type MockErrorCode } from '../../../../common/errors.js';
import { SCENARIO_NAME } from '../../../../common/scenario-name.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminCall, AdminRoute } from '../router.js';
import type { ScenarioControl } from '../scenario-control.js';

/** The status of each scenario failure; anything else is the server's own (500). */
const STATUS: Partial<Record<MockErrorCode, number>> = {
  MOCK_ERR_SCENARIO_NOT_INSTALLED: 404,
  MOCK_ERR_SCENARIO_SOURCE: 404,
  MOCK_ERR_SCENARIO_EXISTS: 409,
  MOCK_ERR_SCENARIO_DEPENDENCY: 409,
  MOCK_ERR_SCENARIO_INVALID: 422,
  MOCK_ERR_SCENARIO_ARCHIVE: 422,
  MOCK_ERR_SCENARIO_CHECKSUM: 422,
  MOCK_ERR_SCENARIO_REGISTRY: 502,
  MOCK_ERR_CONFIG_INVALID: 422,
};

/** The {name} of a path: a package name of the registry, never a path, URL or Git reference. */
function nameOf(call: AdminCall): string {
  const { name } = call.params;
  if (!SCENARIO_NAME.test(name)) throw new AdminError(400, `${JSON.stringify(name)} is not a scenario name: an npm package name such as shop-scenario or @acme/shop (percent-encode the /)`);
  return name;
}

function scenariosOf(ctx: AdminContext): ScenarioControl {
  if (ctx.scenarios === undefined) throw new AdminError(404, 'scenario packages are managed by mock serve (the CLI); this server was started without them');
  return ctx.scenarios;
}

async function answer(call: () => Promise<unknown>, status = 200): Promise<ReturnType<typeof ok>> {
  try {
    return ok(await call(), status);
  } catch (e) {
    const mapped = isMockError(e) ? STATUS[e.code] : undefined;
    if (mapped !== undefined) throw new AdminError(mapped, (e as Error).message);
    throw e;
  }
}

function force(call: AdminCall): boolean {
  const body = call.json();
  if (body === undefined) return false;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new AdminError(400, 'the body must be empty or {"force": true}');
  const value = (body as { force?: unknown }).force;
  if (value !== undefined && typeof value !== 'boolean') throw new AdminError(400, `force: expected true or false, got ${JSON.stringify(value)}`);
  return value === true;
}

/** The spec's /api/scenarios endpoints: the registry (marketplace) and the project's installed scenarios (local). Writes need the admin role. */
export const scenarioRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'scenarios/marketplace',
    handler: ({ ctx, query }) =>
      answer(() =>
        scenariosOf(ctx).marketplace({
          category: query.get('category') ?? undefined,
          tags: query
            .getAll('tags')
            .flatMap((t) => t.split(','))
            .map((t) => t.trim())
            .filter(Boolean),
        }),
      ),
  },
  { method: 'GET', path: 'scenarios/marketplace/{name}', handler: (call) => answer(() => scenariosOf(call.ctx).marketplaceInfo(nameOf(call))) },
  { method: 'POST', path: 'scenarios/marketplace/{name}/install', handler: (call) => answer(() => scenariosOf(call.ctx).install(nameOf(call), force(call)), 201) },
  { method: 'GET', path: 'scenarios/local', handler: ({ ctx }) => answer(() => scenariosOf(ctx).local()) },
  { method: 'GET', path: 'scenarios/local/{name}', handler: (call) => answer(() => scenariosOf(call.ctx).localInfo(nameOf(call))) },
  { method: 'POST', path: 'scenarios/local/{name}/use', handler: (call) => answer(() => scenariosOf(call.ctx).use(nameOf(call))) },
];
