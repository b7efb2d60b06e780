import type { Logger } from 'pino';
import type { OperationMeta } from '../../../common/contract/index.js';
import { compileSecurity, type SecurityCheck } from '../../api-security/index.js';
import { unauthorized, type Engine } from '../../engine/index.js';
import type { BuildRoute } from '../../exchange/index.js';
import type { Stage } from '../stage.js';

/**
 * The mocked API's security schemes (OpenAPI `security`): a request to an operation whose
 * requirements it does not satisfy gets 401 with WWW-Authenticate challenges in enforce mode, a
 * warning in warn mode, nothing when validation or `validation.security` is off. Operations
 * without requirements never run it.
 */
export function securityStage(engine: () => Engine, logger: Logger): Stage {
  const checks = new WeakMap<OperationMeta, SecurityCheck | null>();
  const operationOf = (route: BuildRoute | null): OperationMeta | undefined => (route === null ? undefined : engine().build.operations[route.index]);
  const checkOf = (op: OperationMeta): SecurityCheck | null => {
    let check = checks.get(op);
    if (check === undefined) checks.set(op, (check = compileSecurity(op)));
    return check;
  };
  return {
    name: 'security',
    slot: 'security',
    appliesTo(route) {
      const op = operationOf(route);
      return op !== undefined && checkOf(op) !== null;
    },
    run(ex, next) {
      const current = engine();
      const route = ex.route as BuildRoute;
      const mode = current.modeOf(route.index);
      if (mode === 'off' || current.validationOptions.security === false) return next(ex);
      const op = current.build.operations[route.index];
      const failure = checkOf(op)?.(ex);
      if (failure === undefined) return next(ex);
      if (mode === 'warn') {
        logger.warn({ operation: op.key, expected: failure.expected }, 'request credentials do not satisfy the operation\'s security (warn mode: request accepted)');
        return next(ex);
      }
      return unauthorized({ method: op.method, path: op.path, expected: failure.expected }, failure.challenges);
    },
    // what it applies to depends on the build only, and a new build recompiles every route
    watch: () => undefined,
  };
}
