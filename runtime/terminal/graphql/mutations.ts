import { getNamedType, isAbstractType, isInputObjectType, isLeafType, isListType, isNonNullType, isObjectType, type GraphQLOutputType, type GraphQLSchema } from 'graphql';
import { hashString, mix } from '../fake-data/index.js';
import type { FieldPlan, MockObject, ObjectPlan } from './mock-object.js';

/** What the plans read of the model. */
export interface MutationModel {
  readonly schema: GraphQLSchema;
  readonly objects: ReadonlyMap<string, ObjectPlan>;
  typeByNoun(noun: string): ObjectPlan | undefined;
  /** Told after a mutation field wrote the store: what it did to which object (subscriptions that follow it emit it). */
  mutated(mutation: string, what: 'create' | 'update' | 'delete', target: MockObject): void;
}

/**
 * Mutations that later queries see, by the mutation's name (camelCase or snake_case):
 *
 * The verb leads (`createUser`, `delete_users`) or, in the noun-first style of Shopify and Linear,
 * ends the name (`issueCreate`, `productUpdate`, `customerDelete`).
 *
 * - `create…`/`add…`/`insert…`/`new…`/`register…`/`post…`, and `upsert…`/`save…`/`createOrUpdate…`
 *   without an id: stores a new object of the entity type with the given fields (the `input`
 *   object, `data`, other input objects, and scalar arguments, kept where the type has a field of
 *   that name or `<field>Id` names a related object) and a new id, or the id given. Root list
 *   fields of that type (`users`, `usersConnection { edges { node } nodes }`) list it first. Of a
 *   list of inputs (Hasura's `insert_users(objects: […])`) the first is stored.
 * - `update…`/`edit…`/`set…`/`modify…`/`patch…`/`change…`/`rename…`/`replace…`, and the upserts
 *   above with an id (`id`, the identity field, `input.id`, `where.id`, `where.id._eq`,
 *   `pk_columns.id`, `<entity>Id`): merges the fields into the stored object (the rest of it
 *   stays as mocked).
 * - `delete…`/`remove…`/`destroy…`/`trash…`/`drop…`/`purge…` with an id: marks the object deleted;
 *   lookups by id answer null (an error where non-null), lists leave it out.
 *
 * The entity type is the mutation's return type when it has an identity; else the field of a
 * payload type (`CreateUserPayload { user }`, Hasura's `returning`) holding one, preferring the
 * field named after the noun; else the type the noun names (`deleteUser: Boolean` → User). The
 * answer follows the return type: the object (for a delete, as it was), a payload whose entity
 * field is the object (its `errors`/`userErrors` lists empty, `success`/`ok` true, `deletedId`-like
 * fields the id, `clientMutationId` echoed), `true` for Boolean, the id for an ID, 1 for an Int.
 * Without an entity, or an update or delete without an id, the field is mocked like any other.
 * A graphql.overrides entry for the mutation field wins over all of this.
 */
export type Verb = 'create' | 'update' | 'delete' | 'upsert';

export interface MutationPlan {
  readonly verb: Verb;
  /** The verb as the name says it (`add` of addTodo, `Create` of issueCreate) and the noun (`Todo`, `issue`): which subscriptions follow it (mutation-events.ts). */
  readonly verbWord: string;
  readonly noun: string;
  readonly entity: ObjectPlan;
  /** The fields the arguments give, flattened. */
  input(args: Record<string, unknown>): Record<string, unknown>;
  id(args: Record<string, unknown>, input: Record<string, unknown>): unknown;
  /** What to store: the input's keys the entity knows. */
  fields(input: Record<string, unknown>, id: unknown): Record<string, unknown>;
  answer(
    target: MockObject | null,
    id: unknown,
    root: MockObject,
    args: Record<string, unknown>,
    input: Record<string, unknown>,
    argsHash: number,
    generic: (root: MockObject, args: Record<string, unknown>, argsHash: number) => unknown,
  ): unknown;
}

const VERBS: [RegExp, Verb][] = [
  [/^(upsert|createOrUpdate|create_or_update|save)(?=[A-Z_0-9]|$)/, 'upsert'],
  [/^(create|add|insert|new|register|post)(?=[A-Z_0-9]|$)/, 'create'],
  [/^(update|edit|set|modify|patch|change|rename|replace)(?=[A-Z_0-9]|$)/, 'update'],
  [/^(delete|remove|destroy|trash|drop|purge)(?=[A-Z_0-9]|$)/, 'delete'],
];
/** The noun-first style of Shopify and Linear: `issueCreate`, `productUpdate`, `customerDelete`. */
const VERB_SUFFIXES: [RegExp, Verb][] = [
  [/(?<=[a-z0-9])(Upsert|CreateOrUpdate|Save)$/, 'upsert'],
  [/(?<=[a-z0-9])(Create|Add|Insert|Register)$/, 'create'],
  [/(?<=[a-z0-9])(Update|Edit|Set|Modify|Patch|Change|Rename|Replace)$/, 'update'],
  [/(?<=[a-z0-9])(Delete|Remove|Destroy|Trash|Drop|Purge)$/, 'delete'],
];
const NOUN_SUFFIXES = /(_one|_by_pk|ByPk|ById|_by_id|_many|Many|One)$/;
/** Arguments that say which object, not what to write. */
const ID_HOLDERS = ['where', 'by', 'filter', 'pk_columns', 'condition'];
/** Input keys whose object holds the fields (`input: {data: {…}}`, Hasura's `_set`). */
const WRAPPERS = new Set(['input', 'data', 'set', '_set', 'patch', 'changes', 'attributes', 'fields', 'values', 'object', 'record', 'item']);

export function mutationPlan(fp: FieldPlan, model: MutationModel): MutationPlan | undefined {
  const name = fp.name;
  const found = VERBS.find(([pattern]) => pattern.test(name)) ?? VERB_SUFFIXES.find(([pattern]) => pattern.test(name));
  if (found === undefined) return undefined;
  const [pattern, verb] = found;
  const noun = name.replace(pattern, '').replace(/^_+/, '').replace(NOUN_SUFFIXES, '');
  const returnType = fp.field.type;
  const returned = getNamedType(returnType);
  let entity: ObjectPlan | undefined;
  let payload: ObjectPlan | undefined;
  let payloadField: string | undefined;
  if (isObjectType(returned) && model.objects.get(returned.name)?.identity !== undefined) {
    entity = model.objects.get(returned.name);
  } else if (isAbstractType(returned)) {
    const byNoun = model.typeByNoun(noun);
    if (byNoun !== undefined && model.schema.isSubType(returned, byNoun.type)) entity = byNoun;
  } else if (isObjectType(returned)) {
    payload = model.objects.get(returned.name);
    const candidates = Object.values(returned.getFields()).filter((f) => {
      const t = getNamedType(f.type);
      return isObjectType(t) && model.objects.get(t.name)?.identity !== undefined;
    });
    const lower = noun.toLowerCase();
    const chosen =
      candidates.find((f) => f.name.toLowerCase() === lower) ??
      candidates.find((f) => getNamedType(f.type).name.toLowerCase() === lower) ??
      candidates.find((f) => f.name === 'returning' || f.name === 'node' || f.name === 'record') ??
      candidates[0];
    if (chosen !== undefined) {
      entity = model.objects.get(getNamedType(chosen.type).name);
      payloadField = chosen.name;
    } else {
      entity = model.typeByNoun(noun);
    }
  } else {
    entity = model.typeByNoun(noun);
  }
  if (entity?.identity === undefined) return undefined;
  const identity = entity.identity.field;
  const entityFields = entity.type.getFields();
  const camel = entity.name.charAt(0).toLowerCase() + entity.name.slice(1);
  const args = fp.field.args;

  const flatten = (value: Record<string, unknown>, into: Record<string, unknown>, depth: number): void => {
    for (const [key, item] of Object.entries(value)) {
      if (depth < 2 && typeof item === 'object' && item !== null && !Array.isArray(item) && (WRAPPERS.has(key) || key === camel) && entityFields[key] === undefined) {
        flatten(item as Record<string, unknown>, into, depth + 1);
      } else {
        into[key] = item;
      }
    }
  };

  const plan: MutationPlan = {
    verb,
    verbWord: pattern.exec(name)?.[1] ?? verb,
    noun,
    entity,
    input(values) {
      // null prototypes here and below: a field named like an Object.prototype property (`constructor`) reads as absent unless given
      const input = Object.create(null) as Record<string, unknown>;
      for (const arg of args) {
        const value = values[arg.name];
        if (value === undefined || ID_HOLDERS.includes(arg.name)) continue;
        if (isInputObjectType(getNamedType(arg.type)) && typeof value === 'object' && value !== null) {
          const first = Array.isArray(value) ? value[0] : value;
          if (typeof first === 'object' && first !== null) flatten(first as Record<string, unknown>, input, 0);
        } else {
          input[arg.name] = value;
        }
      }
      return input;
    },
    id(values, input) {
      const direct = values.id ?? values[identity] ?? input.id ?? input[identity] ?? values[`${camel}Id`] ?? input[`${camel}Id`];
      if (direct !== undefined && direct !== null && typeof direct !== 'object') return direct;
      for (const holder of ID_HOLDERS) {
        const value = values[holder];
        if (typeof value === 'object' && value !== null) {
          const id = (value as Record<string, unknown>).id ?? (value as Record<string, unknown>)[identity];
          if (id !== undefined && id !== null && typeof id !== 'object') return id;
          // Hasura-style comparison objects: where: {id: {_eq: 5}}
          const eq = typeof id === 'object' && id !== null ? (id as Record<string, unknown>)._eq ?? (id as Record<string, unknown>).equals : undefined;
          if (eq !== undefined && eq !== null && typeof eq !== 'object') return eq;
        }
      }
      return undefined;
    },
    fields(input, id) {
      const out = Object.create(null) as Record<string, unknown>;
      for (const [key, value] of Object.entries(input)) {
        const relation = /^(.+?)(Id|ID|_id|Ids|IDs|_ids)$/.exec(key);
        const related = relation === null ? undefined : (entityFields[relation[1]!] ?? entityFields[`${relation[1]}s`]);
        if (entityFields[key] !== undefined || (related !== undefined && !isLeafType(getNamedType(related.type)))) out[key] = value;
      }
      out[identity] = id;
      return out;
    },
    answer(target, id, root, values, input, argsHash, generic) {
      return answerOf(returnType);

      function answerOf(type: GraphQLOutputType): unknown {
        const inner = isNonNullType(type) ? type.ofType : type;
        if (isListType(inner)) {
          const item = answerOf(inner.ofType);
          return item === null ? [] : [item];
        }
        const named = getNamedType(type);
        if (isObjectType(named) && named.name === entity!.name) return target;
        if (isAbstractType(named)) return target;
        if (payload !== undefined && named === payload.type) return payloadObject();
        if (isLeafType(named)) {
          if (named.name === 'Boolean') return true;
          if (named.name === 'ID') return id;
          if (named.name === 'Int') return 1;
        }
        return generic(root, values, argsHash);
      }

      function payloadObject(): MockObject {
        const stored: Record<string, unknown> = {};
        for (const field of Object.values(payload!.type.getFields())) {
          const named = getNamedType(field.type);
          const list = isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
          if (field.name === payloadField) stored[field.name] = list ? (target === null ? [] : [target]) : target;
          else if (field.name === 'clientMutationId') stored[field.name] = input.clientMutationId ?? values.clientMutationId ?? null;
          else if (list && /errors$/i.test(field.name)) stored[field.name] = [];
          else if (named.name === 'Boolean' && /^(success|successful|ok|succeeded|deleted|done)$/i.test(field.name)) stored[field.name] = true;
          else if (isLeafType(named) && !list && /^(deleted|removed)?(id|Id|ID|.+Id)$/.test(field.name) && verb === 'delete') stored[field.name] = id;
          else if (named.name === 'Int' && /^(affected_rows|affectedRows|count)$/.test(field.name)) stored[field.name] = 1;
        }
        const h = mix(mix(root.$h ^ argsHash, hashString(payload!.hash, 'payload')), 0);
        return new payload!.Ctor(h, mix(h, payload!.hash2), undefined, stored, undefined);
      }
    },
  };
  return plan;
}
