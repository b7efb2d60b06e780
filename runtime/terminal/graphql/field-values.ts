import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLAbstractType,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { between, mix, type Fakes, type Gen } from '../fake-data/index.js';
import { connectionImpl, connectionNodeType, isConnection, LEN_KEY } from './connections.js';
import { entities } from './federation.js';
import type { FieldContext } from './field-context.js';
import { leafGen } from './leaf-gen.js';
import type { ListBudget } from './list-budget.js';
import { lookupImpl, relatedIdImpl } from './lookups.js';
import { examplesGen, fakeGen, listLengthOf, valueDirectives } from './mock-directives.js';
import { idOf, type FieldPlan, type Impl, type ListExtras, type MockObject, type ObjectPlan } from './mock-object.js';
import type { ModelSettings } from './model-settings.js';
import { mutate, type Written } from './mutate.js';
import { mutationPlan, type MutationModel } from './mutations.js';
import type { MockObjects } from './objects.js';
import { EMPTY_ARGS, type OverrideValues } from './override-values.js';
import { coercerOf } from './scalars.js';
import type { MockStore } from './store.js';
import { unwrapNonNull } from './unwrap.js';

/** A value at a slot (a, b): a field's, or a list item's. */
type SlotGen = (a: number, b: number, extras?: ListExtras) => unknown;

/** Arguments that cap a list's length (`first: 3`). */
const LIMIT_ARGS = ['first', 'last', 'limit', 'take', 'pageSize', 'perPage', 'top', 'size'];

/**
 * How one field answers, decided once per field: what is stored for its object, then its
 * override, then by role (federation, mutations, lookups by id, connections, related ids) and
 * finally by type at the field's slot (lists, objects, leaves from @examples, @fake or the name).
 */
export class FieldValues implements FieldContext {
  readonly listLength: { min: number; max: number };

  constructor(
    readonly schema: GraphQLSchema,
    readonly plans: ReadonlyMap<string, ObjectPlan>,
    readonly objects: MockObjects,
    readonly budget: ListBudget,
    private readonly settings: ModelSettings,
    private readonly store: MockStore,
    private readonly fakes: Fakes,
    private readonly overrides: OverrideValues,
    private readonly entityTypes: ReadonlySet<string>,
    private readonly mutationModel: MutationModel,
  ) {
    this.listLength = settings.listLength;
  }

  /** The field's value: what is stored for its object wins (`author` also follows a stored `authorId`), then its override, then the generated value. */
  buildImpl(fp: FieldPlan, isMutation: boolean): Impl {
    const { field, name } = fp;
    const type = field.type;
    const slot = (obj: MockObject, argsHash: number): [number, number] => [mix(obj.$h ^ argsHash, fp.hash), mix(obj.$h2 ^ argsHash, fp.hash2)];
    const generated = this.overrides.wrap(fp, this.baseImpl(fp, isMutation));
    // what mutations and representations stored wins; `author` also follows a stored `authorId`
    const relationKeys = this.relationKeys(field);
    return (obj, args, argsHash) => {
      const stored = obj.$s;
      if (stored !== undefined) {
        if (Object.hasOwn(stored, name)) {
          const [a, b] = slot(obj, argsHash);
          return this.objects.toOutput(stored[name], type, a, b, isNonNullType(type));
        }
        for (const key of relationKeys) {
          if (Object.hasOwn(stored, key)) {
            const [a, b] = slot(obj, argsHash);
            return this.objects.byIds(stored[key], type, a, b);
          }
        }
      }
      return generated(obj, args, argsHash);
    };
  }

  private relationKeys(field: GraphQLField<unknown, unknown>): string[] {
    const named = getNamedType(field.type);
    if (!isObjectType(named) && !isAbstractType(named)) return [];
    const keys = [`${field.name}Id`, `${field.name}ID`, `${field.name}_id`];
    if (isListType(unwrapNonNull(field.type))) {
      const singular = field.name.replace(/ies$/, 'y').replace(/s$/, '');
      keys.push(`${singular}Ids`, `${singular}IDs`, `${singular}_ids`);
    }
    return keys;
  }

  /** The field's value without what is stored: federation, mutations, lookups by id, connections, lists, leaves. */
  private baseImpl(fp: FieldPlan, isMutation: boolean): Impl {
    const { field, name, owner } = fp;
    const type = field.type;
    const isQueryRoot = this.schema.getQueryType() === owner.type;

    if (isQueryRoot && name === '_service' && getNamedType(type).name === '_Service') {
      const plan = this.plans.get('_Service')!;
      return () => new plan.Ctor(plan.hash, plan.hash2, undefined, { sdl: this.settings.sourceSdl }, undefined);
    }
    if (isQueryRoot && name === '_entities' && field.args.some((a) => a.name === 'representations')) {
      return (_obj, args) => entities(this, this.entityTypes, args?.representations);
    }
    if (isMutation) {
      const plan = mutationPlan(fp, this.mutationModel);
      if (plan !== undefined) {
        const generic = this.slotImpl(fp, false);
        const written = (what: Written, target: MockObject): void => this.mutationModel.mutated(name, what, target);
        return (obj, args, argsHash) => mutate(this, this.store, this.settings.seed, plan, obj, args ?? EMPTY_ARGS, argsHash, generic, written);
      }
    }
    const identity = owner.identity;
    if (identity !== undefined && identity.field === name) {
      const coerce = coercerOf(getNamedType(type) as GraphQLLeafType);
      return (obj, _args, argsHash) => {
        const id = idOf(obj);
        return id !== undefined ? coerce(id) : identity.make(mix(obj.$h ^ argsHash, fp.hash), mix(obj.$h2 ^ argsHash, fp.hash2));
      };
    }
    const lookup = lookupImpl(this, fp, () => this.slotImpl(fp, false));
    if (lookup !== undefined) return lookup;
    const connection = connectionImpl(this, fp);
    if (connection !== undefined) return connection;
    const related = relatedIdImpl(this, fp);
    if (related !== undefined) return related;
    return this.slotImpl(fp, isQueryRoot);
  }

  /** The generic value: by type at the field's slot; root list fields also list what mutations created. */
  private slotImpl(fp: FieldPlan, isQueryRoot: boolean): Impl {
    const { field } = fp;
    const examples = this.examplesImpl(fp);
    if (examples !== undefined) return examples;
    const length = listLengthOf(field) ?? this.listLength;
    const gen = this.typeGen(field.type, fp, length, true);
    const limitArg = field.args.find((a) => LIMIT_ARGS.includes(a.name) && getNamedType(a.type).name === 'Int')?.name;
    const listed = isQueryRoot ? this.listedType(field.type) : undefined;
    const connectionNode = isListType(unwrapNonNull(field.type)) ? undefined : connectionNodeType(this, getNamedType(field.type));
    const created = isQueryRoot ? (listed ?? connectionNode) : undefined;
    // @listLength on a field answering a connection sizes its edges and nodes
    const connectionLength = isListType(unwrapNonNull(field.type)) || !isConnection(getNamedType(field.type)) ? undefined : listLengthOf(field);
    if (limitArg === undefined && created === undefined && connectionLength === undefined) {
      return (obj, _args, argsHash) => gen(mix(obj.$h ^ argsHash, fp.hash), mix(obj.$h2 ^ argsHash, fp.hash2));
    }
    return (obj, args, argsHash) => {
      const a = mix(obj.$h ^ argsHash, fp.hash);
      const b = mix(obj.$h2 ^ argsHash, fp.hash2);
      const limitValue = limitArg === undefined ? undefined : args?.[limitArg];
      const limit = typeof limitValue === 'number' && limitValue >= 0 ? limitValue : undefined;
      const extra = created === undefined || this.store.empty ? undefined : this.createdObjects(created);
      if (limit === undefined && extra === undefined && connectionLength === undefined) return gen(a, b);
      return gen(a, b, { limit, extra, length: connectionLength });
    };
  }

  /** The object type a list field lists (for created objects), if it is a list of an object type with an identity. */
  private listedType(type: GraphQLOutputType): ObjectPlan | undefined {
    const inner = unwrapNonNull(type);
    if (!isListType(inner)) return undefined;
    const item = unwrapNonNull(inner.ofType);
    if (!isObjectType(item)) return undefined;
    const plan = this.plans.get(item.name);
    return plan?.identity === undefined ? undefined : plan;
  }

  private createdObjects(plan: ObjectPlan): readonly MockObject[] | undefined {
    const created = this.store.createdOf(plan.name);
    if (created.length === 0) return undefined;
    const out: MockObject[] = [];
    for (const entry of created) {
      const obj = this.objects.objectWithId(plan, entry.id, false);
      if (obj !== null) out.push(obj);
    }
    return out;
  }

  /** A generator for a type at a slot; `top`: the field's own type (where the extras apply). */
  private typeGen(type: GraphQLOutputType, fp: FieldPlan, length: { min: number; max: number }, top: boolean, inList = false): SlotGen {
    if (isNonNullType(type)) {
      const inner = type.ofType;
      // a deleted object leaves a list; a non-null field outside lists still answers it
      if (isObjectType(inner) || isAbstractType(inner)) return this.compositeGen(inner, !inList);
      return this.typeGen(inner, fp, length, top, inList);
    }
    if (isListType(type)) {
      const itemType = type.ofType;
      const item = unwrapNonNull(itemType);
      const { min, max } = length;
      // enum items take consecutive values: a list as long as the enum shows every value
      const enumValues = isEnumType(item) && this.leafDirectivesOf(fp, item) === undefined ? item.getValues().map((v) => v.name) : undefined;
      const itemGen = enumValues === undefined ? this.typeGen(itemType, fp, length, false, true) : undefined;
      const composite = isObjectType(item) || isAbstractType(item);
      return (a, b, extras) => {
        let n = between(mix(a, LEN_KEY), min, max);
        this.budget.spend(n);
        const out: unknown[] = [];
        const extra = top ? extras?.extra : undefined;
        if (extra !== undefined) for (const obj of extra) out.push(obj);
        const limit = top ? extras?.limit : undefined;
        if (limit !== undefined) n = Math.min(n, Math.max(0, limit - out.length));
        for (let i = 0; i < n; i++) {
          if (enumValues !== undefined) {
            out.push(enumValues[(a + i) % enumValues.length]);
            continue;
          }
          const value = itemGen!(mix(a, i + 1), mix(b, i + 1));
          // deleted objects leave lists
          if (composite && value === null) continue;
          out.push(value);
        }
        if (limit !== undefined && out.length > limit) out.length = limit;
        return out;
      };
    }
    if (isObjectType(type) || isAbstractType(type)) return this.compositeGen(type, false);
    return this.leafSlotGen(type as GraphQLLeafType, fp);
  }

  private compositeGen(type: GraphQLObjectType | GraphQLAbstractType, nonNull: boolean): SlotGen {
    if (isObjectType(type)) {
      const plan = this.plans.get(type.name)!;
      return (a, b, extras) => {
        const obj = this.objects.objectAt(plan, a, b, nonNull);
        if (extras !== undefined && obj !== null) obj.$x = extras;
        return obj;
      };
    }
    const possible = this.schema.getPossibleTypes(type).map((t) => this.plans.get(t.name)!);
    if (possible.length === 0) return () => null;
    return (a, b, extras) => {
      const obj = this.objects.objectAt(possible[mix(a, 0x7e5)! % possible.length]!, a, b, nonNull);
      if (extras !== undefined && obj !== null) obj.$x = extras;
      return obj;
    };
  }

  /** A leaf's value: `@examples`, `@fake`, then the field's name and type. */
  private leafSlotGen(leaf: GraphQLLeafType, fp: FieldPlan): SlotGen {
    const identity = fp.owner.identity?.field === fp.name;
    if (identity) {
      const make = fp.owner.identity!.make;
      return (a, b) => make(a, b);
    }
    const gen: Gen = this.leafDirectivesOf(fp, leaf) ?? leafGen(this.fakes, leaf, { name: fp.name, parent: fp.owner.name }, false);
    return (a) => gen(a);
  }

  /**
   * `@examples` where leaves cannot take it item by item: on a list field whose examples are lists
   * (one whole list picked), or on a field of an object type (example objects, their other fields
   * mocked).
   */
  private examplesImpl(fp: FieldPlan): Impl | undefined {
    const type = fp.field.type;
    const inner = unwrapNonNull(type);
    const named = getNamedType(type);
    const examples = valueDirectives(fp.field, named).examples;
    if (examples === undefined) return undefined;
    const list = isListType(inner);
    const slot = (obj: MockObject, argsHash: number): [number, number] => [mix(obj.$h ^ argsHash, fp.hash), mix(obj.$h2 ^ argsHash, fp.hash2)];
    if (list && examples.every(Array.isArray)) {
      return (obj, _args, argsHash) => {
        const [a, b] = slot(obj, argsHash);
        return this.objects.toOutput(examples[a % examples.length], type, a, b, true);
      };
    }
    if (isLeafType(named)) return undefined;
    const length = listLengthOf(fp.field) ?? this.listLength;
    return (obj, _args, argsHash) => {
      const [a, b] = slot(obj, argsHash);
      if (!list) return this.objects.toOutput(examples[a % examples.length], type, a, b, true);
      const n = between(mix(a, LEN_KEY), length.min, length.max);
      this.budget.spend(n);
      const items = Array.from({ length: n }, (_, i) => examples[(a + i) % examples.length]);
      return this.objects.toOutput(items, type, a, b, true);
    };
  }

  private leafDirectivesOf(fp: FieldPlan, leaf: GraphQLLeafType): Gen | undefined {
    const directives = valueDirectives(fp.field, leaf);
    if (directives.examples !== undefined) return examplesGen(directives.examples);
    if (directives.fake !== undefined) return fakeGen(this.fakes, directives.fake, leaf) ?? undefined;
    return undefined;
  }
}
