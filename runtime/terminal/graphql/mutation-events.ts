import { getNamedType, isAbstractType, isListType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { EMITS_KEY } from '../../../common/graphql/overrides-check.js';
import type { MockObject, ObjectPlan } from './mock-object.js';
import type { Written } from './mutate.js';
import { mutationPlan, type MutationModel, type MutationPlan } from './mutations.js';
import { unwrapNonNull } from './unwrap.js';

/** A subscription field that emits what a mutation did, and the payload it emits for the object. */
interface Follower {
  readonly field: string;
  readonly payload: (target: MockObject) => unknown;
}

const PAST: Record<Written, string> = { create: 'created', update: 'updated', delete: 'deleted' };
const ALL: readonly Written[] = ['create', 'update', 'delete'];
const normal = (name: string): string => name.toLowerCase().replace(/_/g, '');
const pastOf = (verb: string): string => (verb.endsWith('e') ? `${verb}d` : `${verb}ed`);

/**
 * Subscriptions that follow mutations: after a mutation writes an object (mutations.ts), every
 * subscription field that follows it emits the object at once, besides its timer's events.
 *
 * By convention a mutation's noun (or its object's type) with the past of what it did names the
 * subscription: `createIssue`, `issueCreate`, `addIssue` → `issueCreated` (and `issueAdded`,
 * `onIssueCreated`, `onCreateIssue`), `updateIssue`/`issueUpdate` → `issueUpdated`,
 * `deleteIssue` → `issueDeleted`; an upsert → `…Created` or `…Updated` by what it did. Names
 * compare without case and underscores (`issue_created`). `graphql.overrides.$emits` names the
 * pairs instead, mutation by mutation (`{ issueOpen: [issueOpened] }`; `[]`: none).
 *
 * A subscription follows only if its type carries the object: the object's type, an interface or
 * union it belongs to, or a type with a field of it (`IssuePayload { issue }`, the rest mocked).
 */
export class MutationEvents {
  private readonly followers = new Map<string, Partial<Record<Written, Follower[]>>>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  /** Problems of graphql.overrides.$emits only the mock can see (a pair whose subscription cannot carry the object). */
  readonly problems: string[] = [];

  constructor(schema: GraphQLSchema, model: MutationModel, explicit: Record<string, unknown>) {
    const mutation = schema.getMutationType();
    const subscription = schema.getSubscriptionType();
    if (mutation == null || subscription == null) return;
    const mutationPlans = model.objects.get(mutation.name)!;
    const subscriptionFields = Object.values(subscription.getFields());
    for (const fp of mutationPlans.fields.values()) {
      const plan = mutationPlan(fp, model);
      const named = explicit[fp.name];
      if (named !== undefined) {
        this.pair(fp.name, plan, [named].flat() as string[], subscriptionFields, schema);
        continue;
      }
      if (plan === undefined) continue;
      const byWrite: Partial<Record<Written, Follower[]>> = {};
      for (const what of plan.verb === 'upsert' ? (['create', 'update'] as const) : [plan.verb]) {
        const names = conventionalNames(plan, what);
        const followers = subscriptionFields.filter((f) => names.has(normal(f.name))).flatMap((f) => follower(f, plan.entity, schema) ?? []);
        if (followers.length > 0) byWrite[what] = followers;
      }
      if (Object.keys(byWrite).length > 0) this.followers.set(fp.name, byWrite);
    }
  }

  /** Delivers the payloads of `subscription`'s mutation events to `deliver` until the returned function is called. */
  follow(subscription: string, deliver: (payload: unknown) => void): () => void {
    let listeners = this.listeners.get(subscription);
    if (listeners === undefined) this.listeners.set(subscription, (listeners = new Set()));
    listeners.add(deliver);
    return () => {
      listeners.delete(deliver);
      if (listeners.size === 0) this.listeners.delete(subscription);
    };
  }

  /** What `mutation` did to `target`, to the subscriptions that follow it (nothing to do when none listens). */
  publish(mutation: string, what: Written, target: MockObject): void {
    if (this.listeners.size === 0) return;
    for (const { field, payload } of this.followers.get(mutation)?.[what] ?? []) {
      const listeners = this.listeners.get(field);
      if (listeners === undefined) continue;
      const value = payload(target);
      for (const deliver of listeners) deliver(value);
    }
  }

  private pair(mutation: string, plan: MutationPlan | undefined, names: readonly string[], fields: readonly GraphQLField<unknown, unknown>[], schema: GraphQLSchema): void {
    const at = `graphql.overrides.${EMITS_KEY}.${mutation}`;
    if (names.length === 0) return;
    if (plan === undefined) {
      this.problems.push(`${at}: ${mutation} writes no object (the mock stores what a mutation named create…, update…, delete… or …Create, …Update, …Delete does: docs/graphql.md, "Mutations"), so no subscription can follow it`);
      return;
    }
    const followers: Follower[] = [];
    for (const name of names) {
      const field = fields.find((f) => f.name === name);
      const found = field === undefined ? undefined : follower(field, plan.entity, schema);
      if (found === undefined) this.problems.push(`${at}: ${name}'s type cannot carry a ${plan.entity.name} (it must be ${plan.entity.name}, an interface or union of it, or a type with a ${plan.entity.name} field)`);
      else followers.push(found);
    }
    this.followers.set(mutation, Object.fromEntries(ALL.map((what) => [what, followers])));
  }
}

/** The subscription names that follow `plan` when it did `what`, compared by normal(). */
function conventionalNames(plan: MutationPlan, what: Written): Set<string> {
  const verbs = new Set([what, normal(plan.verbWord)]);
  const names = new Set<string>();
  for (const noun of new Set([normal(plan.noun), normal(plan.entity.name)])) {
    for (const verb of verbs) {
      const past = verb === what ? PAST[what] : pastOf(verb);
      names.add(`${noun}${past}`).add(`on${noun}${past}`).add(`on${verb}${noun}`);
    }
  }
  return names;
}

/** How `field` carries an `entity`, if its type can. */
function follower(field: GraphQLField<unknown, unknown>, entity: ObjectPlan, schema: GraphQLSchema): Follower | undefined {
  const named = getNamedType(field.type);
  const list = isListType(unwrapNonNull(field.type));
  const as = (value: unknown): unknown => (list ? [value] : value);
  if (named === entity.type || (isAbstractType(named) && schema.isSubType(named, entity.type))) return { field: field.name, payload: (target) => as(target) };
  if (!isObjectType(named)) return undefined;
  const holders = Object.values(named.getFields()).filter((f) => getNamedType(f.type) === entity.type);
  const lower = entity.name.toLowerCase();
  const holder = holders.find((f) => f.name.toLowerCase() === lower) ?? holders[0];
  if (holder === undefined) return undefined;
  const inner = isListType(unwrapNonNull(holder.type));
  return { field: field.name, payload: (target) => as({ [holder.name]: inner ? [target] : target }) };
}
