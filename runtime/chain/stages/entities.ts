import { andThen } from '../../store/index.js';
import type { EntityResult } from '../entities/index.js';
import { ownAnswer, refusal, type Answer } from '../exchange/index.js';
import { defineStage } from '../stage.js';

/**
 * The collections of the scenario in use (vbr_entities; docs/scenarios.md, "Entities"): GET, POST on
 * `/<entity>`, GET, PUT, PATCH, DELETE on `/<entity>/<id>`, answered from the `scenario-entities`
 * store after the state machines, before chaos and the description. Other methods and paths go on.
 */
export const entitiesStage = defineStage({ slot: 'entities', kinds: ['description'] }, ({ entities }) => {
  if (entities === undefined || entities.size === 0) return undefined;
  return {
    // an entity's path need not be a route of the description: the unmatched chain carries it too
    appliesTo: () => true,
    run(ex, next) {
      const request = entities.match(ex.path);
      if (request === undefined) return next(ex);
      const result = entities.handle(ex.method, request, ex.body === undefined || ex.body.length === 0 ? undefined : ex.json);
      if (result === undefined) return next(ex);
      return andThen(result, answerOf);
    },
  };
});

function answerOf(result: EntityResult): Answer {
  if ('problem' in result) {
    const { entity, id = '', why = '' } = result;
    if (result.problem === 'not-found') return ownAnswer(refusal('MOCK_ERR_ENTITY_NOT_FOUND', { entity, id }));
    if (result.problem === 'conflict') return ownAnswer(refusal('MOCK_ERR_ENTITY_CONFLICT', { entity, id }));
    return ownAnswer(refusal('MOCK_ERR_ENTITY_INVALID', { entity, why }));
  }
  if (result.body === undefined) return { status: result.status, headers: [], body: '', source: 'state_machine' };
  return { status: result.status, headers: [['content-type', 'application/json']], body: JSON.stringify(result.body), source: 'state_machine' };
}
