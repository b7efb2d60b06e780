import type { Description } from '../description.js';
import { ownAnswer, refusal, type Answer, type BuildRoute, type Exchange } from '../exchange/index.js';
import { describeExit, type Machine, type StatefulResult } from '../stateful/index.js';
import { defineStage, type Next } from '../stage.js';

/**
 * State machines (spec step 2, core.stateful): a request matching one of their transitions moves
 * its resource and is answered by the state it moves to (docs/stateful.md). Only operations of the
 * descriptions some transition can reach carry the stage; so does the unmatched chain while
 * machines exist, since a transition's path may be no route's (or a method a route lacks), which
 * only the request tells. mock.yaml's custom routes never do: one is an answer written for a
 * case (a wrong one-time password, an expired coupon), which wins over the machines as runtime
 * mocks win over the proxy.
 */
export const statefulStage = defineStage({ slot: 'stateful', kinds: ['description'] }, ({ stateful, engine }) => {
  if (stateful === undefined || stateful.machines.length === 0 || engine === undefined) return undefined;
  const all = stateful.machines;
  // per route of the build being served; a restart's new routes are new keys
  const reaching = new WeakMap<BuildRoute, readonly Machine[]>();
  const machinesFor = (route: BuildRoute | null): readonly Machine[] => {
    if (route === null) return all;
    let machines = reaching.get(route);
    if (machines === undefined) {
      // the build's routes are its operations, then its custom routes
      const custom = route.index >= engine().build.operations.length;
      reaching.set(route, (machines = custom ? [] : all.filter((machine) => machine.mayReach(route))));
    }
    return machines;
  };
  return {
    appliesTo: (route) => machinesFor(route).length > 0,
    run(ex, next) {
      const match = stateful.match(ex, machinesFor(ex.route));
      if (match === undefined) return next(ex);
      const current = engine();
      // a request the description refuses (enforce mode) moves nothing: the terminal answers it
      if (refusedByDescription(ex, current)) return next(ex);
      const result = stateful.apply(match, ex, current.templateRuntime);
      return result instanceof Promise ? result.then((settled) => answerOf(settled, ex, next)) : answerOf(result, ex, next);
    },
  };
});

function refusedByDescription(ex: Exchange, engine: Description): boolean {
  if (ex.match.kind !== 'operation' || engine.modeOf(ex.match.index) !== 'enforce') return false;
  const checked = ex.validated();
  return checked.issues.length > 0 || checked.unsupportedType !== undefined;
}

/** The state's answer; a conflict as the catalogue's 409, a resource too large for the store as its 413 (refused by mock.yaml, not by a description: the problem body); otherwise the rest of the chain. */
function answerOf(result: StatefulResult, ex: Exchange, next: Next): Answer | Promise<Answer> {
  if (result === undefined) return next(ex);
  if ('answer' in result) return result.answer;
  if ('tooLarge' in result) {
    const { machine, bytes, budgetBytes } = result.tooLarge;
    return ownAnswer(refusal('MOCK_ERR_STATE_TOO_LARGE', { machine, bytes, budgetMb: budgetBytes / (1024 * 1024) }, { logged: true }));
  }
  const { machine, resource, state, request, from, exits } = result.conflict;
  const params = { machine, resource, state, request, from, allowed: exits.map(describeExit) };
  const extra = { machine, resource_id: resource, current_state: state, allowed_transitions: exits };
  return ownAnswer(refusal('MOCK_ERR_STATE_CONFLICT', params, { extra, logged: true }));
}
