import { GraphQLError } from 'graphql';
import { hashValue, mix } from '../fake-data/index.js';
import type { FieldContext } from './field-context.js';
import type { Args } from './mock-object.js';

/** Federation's `_entities(representations:)`: each representation an object of its entity type, its fields answering first. */
export function entities(cx: FieldContext, entityTypes: ReadonlySet<string>, representations: unknown): unknown[] {
  if (!Array.isArray(representations)) return [];
  return representations.map((rep, i) => {
    if (typeof rep !== 'object' || rep === null || typeof (rep as Args).__typename !== 'string') {
      return new GraphQLError(`representation ${i} has no __typename`, { extensions: { code: 'BAD_USER_INPUT' } });
    }
    const typename = (rep as Args).__typename as string;
    const plan = cx.plans.get(typename);
    if (plan === undefined || !entityTypes.has(typename)) {
      return new GraphQLError(`representation ${i}: ${typename} is not an entity of this subgraph (entities: ${[...entityTypes].join(', ') || 'none'})`, {
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    const { __typename: _, ...fields } = rep as Args;
    const h = hashValue(plan.hash, fields);
    return cx.objects.objectFromRecord(plan.type, fields, h, mix(h, plan.hash2));
  });
}
