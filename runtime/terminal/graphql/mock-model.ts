import { getNamedType, isAbstractType, isEnumType, isLeafType, isListType, isNonNullType, isObjectType, isScalarType, isUnionType, type GraphQLLeafType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { Fakes, hashString, hashValue, mix, uuidOf } from '../fake-data/index.js';
import { FieldValues } from './field-values.js';
import { scalarShape } from './leaf-gen.js';
import { ListBudget } from './list-budget.js';
import { MockObject, resolveType, type Args, type FieldPlan, type Identity, type Impl, type ObjectPlan } from './mock-object.js';
import type { ModelSettings } from './model-settings.js';
import { MockObjects, typeTag } from './objects.js';
import { OverrideValues } from './override-values.js';
import { installScalar, isBuiltInScalar } from './scalars.js';
import type { MockStore } from './store.js';
import { unwrapNonNull } from './unwrap.js';

export type { ModelSettings } from './model-settings.js';

/**
 * The mocked schema: every object the mock answers is a MockObject of its type, identified by two
 * 32-bit lanes ($h, $h2) and, for types with an identity field (`id`, the first `@key` field, or
 * the first `ID!` field), by its id. A field's value is a function of the object's lanes, the
 * field and its arguments (the "slot"), so the same object answers the same whatever else a query
 * asks, and an object with the same type and id is the same object everywhere (its lanes come
 * from the id).
 *
 * Fields without arguments are getters on a class per type, so graphql-jit reads them as plain
 * properties (no resolver call, no resolve info); fields with arguments, and the root types'
 * fields (which then answer without a root value), get resolvers.
 *
 * Before generating, a field answers what the store holds for its object (written by mutations,
 * `_entities` representations, static override objects), then graphql.overrides, then fake data.
 */
export class MockModel {
  readonly objects = new Map<string, ObjectPlan>();
  readonly fakes: Fakes;
  private readonly byLowerName = new Map<string, ObjectPlan>();
  private readonly budget: ListBudget;
  private readonly fields: FieldValues;

  constructor(
    readonly schema: GraphQLSchema,
    private readonly settings: ModelSettings,
    readonly store: MockStore,
    entities: readonly string[],
  ) {
    this.fakes = new Fakes(settings.seed, settings.now);
    this.budget = new ListBudget(settings.listLength.max);
    // an SDL printed from a schema loses its @key usages but keeps the _Entity union
    const entityUnion = schema.getType('_Entity');
    const entityTypes = new Set(entities.length === 0 && entityUnion !== undefined && isUnionType(entityUnion) ? entityUnion.getTypes().map((t) => t.name) : entities);
    const instances = new MockObjects(schema, this.objects, store, settings.seed);
    const overrides = new OverrideValues(schema, this.objects, instances, settings.instant, settings.plugins);
    this.fields = new FieldValues(schema, this.objects, instances, this.budget, settings, store, this.fakes, overrides, entityTypes, this);
    const types = Object.values(schema.getTypeMap()).filter((t): t is GraphQLObjectType => isObjectType(t) && !t.name.startsWith('__'));
    for (const type of types) {
      const plan = this.objectPlan(type);
      this.objects.set(type.name, plan);
      this.byLowerName.set(type.name.toLowerCase(), plan);
    }
    for (const plan of this.objects.values()) this.installFields(plan);
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (isAbstractType(type)) type.resolveType = resolveType;
      else if (isScalarType(type) && !isBuiltInScalar(type.name)) installScalar(type);
    }
    overrides.compile(settings.overrides);
  }

  /** Before computing an answer: its list items are counted from zero. */
  beginAnswer(): void {
    this.budget.begin();
  }

  /** A root value of an operation type (a new one each time: the getters keep values per object). */
  root(type: GraphQLObjectType): MockObject {
    const plan = this.objects.get(type.name)!;
    return new plan.Ctor(plan.hash, plan.hash2, undefined, undefined, undefined);
  }

  /** The n-th event of a subscription field: a Subscription root whose lanes differ per event. */
  event(root: MockObject, field: FieldPlan, argsHash: number, n: number): MockObject {
    const plan = root.$p;
    const a = mix(mix(root.$h ^ argsHash, field.hash), n);
    const b = mix(mix(root.$h2 ^ argsHash, field.hash2), n);
    return new plan.Ctor(a, b, undefined, undefined, undefined);
  }

  private objectPlan(type: GraphQLObjectType): ObjectPlan {
    const name = type.name;
    const Ctor = class extends MockObject {};
    Object.defineProperty(Ctor, 'name', { value: `Mock${name}` });
    const plan: ObjectPlan = {
      name,
      type,
      hash: hashString(this.settings.seed, name),
      hash2: hashString(mix(this.settings.seed, 0x2545f491), name),
      identity: this.identityOf(type),
      Ctor,
      fields: new Map(),
    };
    Object.defineProperty(Ctor.prototype, '$t', { value: name });
    Object.defineProperty(Ctor.prototype, '$p', { value: plan });
    return plan;
  }

  /** `id`; else the first field of the type's `@key`; else the first `ID!` field. */
  private identityOf(type: GraphQLObjectType): Identity | undefined {
    const fields = type.getFields();
    let name: string | undefined;
    if (fields.id !== undefined && isLeafType(getNamedType(fields.id.type)) && !isListType(unwrapNonNull(fields.id.type))) name = 'id';
    if (name === undefined) {
      const key = [type.astNode, ...type.extensionASTNodes]
        .flatMap((n) => n?.directives ?? [])
        .find((d) => d.name.value === 'key' || d.name.value === 'federation__key');
      const fieldsArg = key?.arguments?.find((a) => a.name.value === 'fields')?.value;
      const first = fieldsArg?.kind === 'StringValue' ? /^\s*([_A-Za-z][_0-9A-Za-z]*)/.exec(fieldsArg.value)?.[1] : undefined;
      if (first !== undefined && fields[first] !== undefined && isLeafType(getNamedType(fields[first].type))) name = first;
    }
    if (name === undefined) {
      name = Object.values(fields).find((f) => isNonNullType(f.type) && getNamedType(f.type).name === 'ID')?.name;
    }
    if (name === undefined) return undefined;
    const leaf = getNamedType(fields[name]!.type) as GraphQLLeafType;
    const numeric = leaf.name === 'Int' || leaf.name === 'Float' || (isScalarType(leaf) && !isBuiltInScalar(leaf.name) && ['number', 'bigint'].includes(scalarShape(leaf.name).kind));
    if (numeric) return { field: name, kind: 'number', make: (a) => 1 + (a % 1_000_000) };
    if (isEnumType(leaf)) {
      const values = leaf.getValues().map((v) => v.name);
      return { field: name, kind: 'other', make: (a) => values[a % values.length] };
    }
    const tag = typeTag(type.name);
    return { field: name, kind: 'uuid', make: (a, b) => uuidOf(a, b, tag) };
  }

  private installFields(plan: ObjectPlan): void {
    const isSubscription = this.schema.getSubscriptionType() === plan.type;
    const isMutation = this.schema.getMutationType() === plan.type;
    const isRoot = isSubscription || isMutation || this.schema.getQueryType() === plan.type;
    for (const field of Object.values(plan.type.getFields())) {
      let impl: Impl | undefined;
      const fieldPlan: FieldPlan = {
        name: field.name,
        hash: hashString(plan.hash, field.name),
        hash2: hashString(plan.hash2, field.name),
        field,
        owner: plan,
        value: (obj, args, argsHash) => (impl ??= this.fields.buildImpl(fieldPlan, isMutation))(obj, args, argsHash),
      };
      plan.fields.set(field.name, fieldPlan);
      if (isSubscription) {
        field.subscribe = (root: unknown, args: Args) => this.subscribeHook(fieldPlan, root instanceof MockObject ? root : this.root(plan.type), args);
      }
      if (isRoot) {
        // root fields resolve even without a root value (an executor given only the schema)
        field.resolve = (obj: unknown, args: Args) =>
          fieldPlan.value(obj instanceof MockObject ? obj : this.root(plan.type), args, field.args.length > 0 ? hashValue(0, args) : 0);
      } else if (field.args.length > 0) {
        field.resolve = (obj: unknown, args: Args) => fieldPlan.value(obj as MockObject, args, hashValue(0, args));
      } else if (isLeafType(unwrapNonNull(field.type))) {
        const value = fieldPlan.value;
        Object.defineProperty(plan.Ctor.prototype, field.name, {
          get(this: MockObject) {
            return value(this, undefined, 0);
          },
          configurable: true,
        });
      } else {
        // graphql-jit reads an object or list property several times (null check, Error check,
        // iterable check, then the value): the last value computed is kept for the next read
        const value = fieldPlan.value;
        const store = this.store;
        let lastObject: MockObject | undefined;
        let lastValue: unknown;
        let lastGeneration = -1;
        Object.defineProperty(plan.Ctor.prototype, field.name, {
          get(this: MockObject) {
            if (this === lastObject && store.generation === lastGeneration) return lastValue;
            const computed = value(this, undefined, 0);
            lastObject = this;
            lastValue = computed;
            lastGeneration = store.generation;
            return computed;
          },
          configurable: true,
        });
      }
    }
  }

  /** Set by the engine: what a subscription field's subscribe returns. */
  subscribeHook: (field: FieldPlan, root: MockObject, args: Args) => unknown = () => {
    throw new Error('subscriptions are not wired');
  };

  /** Set by the engine: told what each mutation wrote (subscriptions that follow it emit it). */
  mutatedHook: (mutation: string, what: 'create' | 'update' | 'delete', target: MockObject) => void = () => {};

  mutated(mutation: string, what: 'create' | 'update' | 'delete', target: MockObject): void {
    this.mutatedHook(mutation, what, target);
  }

  /** The object type a mutation's noun names (`deleteUser` → User), if any. */
  typeByNoun(noun: string): ObjectPlan | undefined {
    const lower = noun.toLowerCase().replace(/_/g, '');
    return this.byLowerName.get(lower) ?? this.byLowerName.get(lower.replace(/ies$/, 'y')) ?? this.byLowerName.get(lower.replace(/e?s$/, ''));
  }
}
