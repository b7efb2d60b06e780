import type { GraphQLSchema } from 'graphql';
import type { ListBudget } from './list-budget.js';
import type { ObjectPlan } from './mock-object.js';
import type { MockObjects } from './objects.js';

/** What the ways a field answers (field-values.ts, lookups.ts, connections.ts) read of the model. */
export interface FieldContext {
  readonly schema: GraphQLSchema;
  readonly plans: ReadonlyMap<string, ObjectPlan>;
  readonly objects: MockObjects;
  readonly budget: ListBudget;
  /** graphql.list_length, unless @listLength says otherwise. */
  readonly listLength: { min: number; max: number };
}
