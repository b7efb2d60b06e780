import type { OperationMeta } from '../../../common/contract/index.js';
import { compileSecurity, type SecurityCheck, type SecurityFailure } from '../security/index.js';
import type { Description } from '../description.js';
import { clientCertificateRefused, insufficientScope, unauthorized } from '../exchange/index.js';
import type { Answer, BuildRoute, Exchange } from '../exchange/index.js';
import { defineStage, type Next } from '../stage.js';

/**
 * The mocked API's security schemes (OpenAPI `security`): a request to an operation whose
 * requirements it does not satisfy gets 401 (403 for missing scopes) with WWW-Authenticate
 * challenges in enforce mode, its body in the operation's words when it documents one, a
 * warning in warn mode, nothing when validation or `validation.security` is off. Operations
 * without requirements never run it.
 */
export const securityStage = defineStage({ slot: 'security', kinds: ['description'] }, ({ engine, logger, settings, tokenIssuer }) => {
  if (engine === undefined) return undefined;
  const checks = new WeakMap<OperationMeta, SecurityCheck | null>();
  const contextOf = (scheme: string) => ({ pins: settings.apiAuth?.schemes[scheme], issuer: tokenIssuer });
  const operationOf = (route: BuildRoute | null): OperationMeta | undefined => (route === null ? undefined : engine().build.operations[route.index]);
  const checkOf = (op: OperationMeta): SecurityCheck | null => {
    let check = checks.get(op);
    if (check === undefined) checks.set(op, (check = compileSecurity(op, contextOf)));
    return check;
  };
  const judged = (ex: Exchange, next: Next, current: Description, index: number, warn: boolean, failure: SecurityFailure | undefined): Answer | Promise<Answer> => {
    if (failure === undefined) return next(ex);
    const op = current.build.operations[index];
    const { expected, refused } = failure;
    if (warn) {
      logger.warn({ operation: op.key, expected, refused }, "request credentials do not satisfy the operation's security (warn mode: request accepted)");
      return next(ex);
    }
    const refusal =
      failure.insufficientScope !== undefined
        ? insufficientScope({ method: op.method, path: op.path, refused: refused ?? '' }, failure.insufficientScope.challenge)
        : failure.forbidden === true
          ? clientCertificateRefused({ method: op.method, path: op.path, refused: refused ?? '' })
          : unauthorized({ method: op.method, path: op.path, expected, refused }, failure.challenges);
    return current.refuse(ex, index, refusal);
  };
  return {
    appliesTo(route) {
      const op = operationOf(route);
      return op !== undefined && checkOf(op) !== null;
    },
    run(ex, next) {
      const current = engine();
      const route = ex.route as BuildRoute;
      const mode = current.modeOf(route.index);
      if (mode === 'off' || current.validationOptions.security === false) return next(ex);
      const failure = checkOf(current.build.operations[route.index])?.(ex);
      if (failure instanceof Promise) return failure.then((f) => judged(ex, next, current, route.index, mode === 'warn', f));
      return judged(ex, next, current, route.index, mode === 'warn', failure);
    },
  };
});
