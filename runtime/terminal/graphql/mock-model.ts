import {
  getNamedType,
  GraphQLError,
  GraphQLObjectType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  Kind,
  type GraphQLAbstractType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLLeafType,
  type GraphQLOutputType,
  type GraphQLScalarType,
  type GraphQLSchema,
} from 'graphql';
import { PROBLEMS } from '../../../common/errors.js';
import { overrideVars } from '../../../common/graphql/overrides-check.js';
import { between, decodeUuid, decodedA, decodedB, decodedTag, Fakes, hashString, hashValue, mix, uuidOf, type Gen } from '../fake-data/index.js';
import { leafGen, scalarShape } from './leaf-gen.js';
import { examplesGen, fakeGen, listLengthOf, valueDirectives } from './mock-directives.js';
import { mutationPlan, type MutationPlan } from './mutations.js';
import { MockObject, type Args, type FieldPlan, type Identity, type Impl, type ListExtras, type ObjectPlan } from './mock-object.js';
import { OverrideTemplates, type CompiledOverride } from './overrides.js';
import type { MockStore } from './store.js';

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
export interface ModelSettings {
  seed: number;
  now: () => number;
  listLength: { min: number; max: number };
  overrides: Record<string, Record<string, unknown>>;
  sourceSdl: string;
}

/** A value at a slot (a, b): a field's, or a list item's. */
type SlotGen = (a: number, b: number, extras?: ListExtras) => unknown;

const EMPTY_ARGS: Args = Object.freeze({}) as Args;
const LIMIT_ARGS = ['first', 'last', 'limit', 'take', 'pageSize', 'perPage', 'top', 'size'];
const ID_CONTAINER_ARGS = ['where', 'by', 'filter'];
const LEN_KEY = 0x6c656e; // "len"
const EDGES = 0x65646765;
const MAX_OVERRIDE_NESTING = 8;
/** List items one answer may hold: nested lists multiply (5 per list, 8 levels: 390,625 objects). */
export const MAX_LIST_ITEMS = 50_000;

export class MockModel {
  readonly objects = new Map<string, ObjectPlan>();
  readonly fakes: Fakes;
  private readonly byLowerName = new Map<string, ObjectPlan>();
  private readonly templates: OverrideTemplates;
  private readonly compiledOverrides = new Map<string, CompiledOverride>();
  private overrideNesting = 0;
  private readonly entityTypes: Set<string>;
  /**
   * List items the answer being computed may still add. Answers are computed synchronously, one
   * at a time: the budget is renewed before each (beginAnswer), and after each synchronous run
   * anyway (a microtask), for whoever executes the schema without the engine.
   */
  private listBudget = MAX_LIST_ITEMS;
  private renewal = false;
  private readonly renew = (): void => {
    this.renewal = false;
    this.listBudget = MAX_LIST_ITEMS;
  };

  constructor(
    readonly schema: GraphQLSchema,
    private readonly settings: ModelSettings,
    readonly store: MockStore,
    entities: readonly string[],
  ) {
    this.fakes = new Fakes(settings.seed, settings.now);
    this.templates = new OverrideTemplates(settings.now);
    // an SDL printed from a schema loses its @key usages but keeps the _Entity union
    const entityUnion = schema.getType('_Entity');
    this.entityTypes = new Set(entities.length === 0 && entityUnion !== undefined && isUnionType(entityUnion) ? entityUnion.getTypes().map((t) => t.name) : entities);
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
    this.compileOverrides();
  }

  /** Before computing an answer: its list items are counted from zero. */
  beginAnswer(): void {
    this.listBudget = MAX_LIST_ITEMS;
  }

  /** Counts n list items against the answer's budget; past it, the answer fails with MOCK_ERR_GRAPHQL_TOO_LARGE. */
  private spend(n: number): void {
    if (!this.renewal) {
      this.renewal = true;
      queueMicrotask(this.renew);
    }
    if ((this.listBudget -= n) < 0) {
      this.listBudget = MAX_LIST_ITEMS; // the next answer, if this one is abandoned mid-way
      throw new GraphQLError(PROBLEMS.MOCK_ERR_GRAPHQL_TOO_LARGE.detail({ max: MAX_LIST_ITEMS, length: this.settings.listLength.max }), {
        extensions: { code: 'MOCK_ERR_GRAPHQL_TOO_LARGE' },
      });
    }
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
        value: (obj, args, argsHash) => (impl ??= this.buildImpl(fieldPlan, isMutation))(obj, args, argsHash),
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

  private compileOverrides(): void {
    const overrides = this.settings.overrides;
    for (const [typeName, fields] of Object.entries(overrides)) {
      const type = this.schema.getType(typeName);
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      const targets = isInterfaceType(type) ? this.schema.getPossibleTypes(type).map((t) => t.name) : [typeName];
      for (const [fieldName, value] of Object.entries(fields)) {
        for (const target of targets) {
          const key = `${target}.${fieldName}`;
          // an object type's own override beats its interface's
          if (this.compiledOverrides.has(key) && target !== typeName) continue;
          if (this.objects.get(target)?.fields.get(fieldName) === undefined) continue;
          this.compiledOverrides.set(key, this.templates.compile(value, overrideVars(this.schema, target, fieldName)));
        }
      }
    }
  }

  // --- how one field answers -------------------------------------------------------------------

  private buildImpl(fp: FieldPlan, isMutation: boolean): Impl {
    const { field, name } = fp;
    const type = field.type;
    const owner = fp.owner;
    const slot = (obj: MockObject, argsHash: number): [number, number] => [mix(obj.$h ^ argsHash, fp.hash), mix(obj.$h2 ^ argsHash, fp.hash2)];
    const base = this.baseImpl(fp, isMutation);
    const override = this.compiledOverrides.get(`${owner.name}.${name}`);
    const generated: Impl =
      override === undefined
        ? base
        : (obj, args, argsHash) => {
            const [a, b] = slot(obj, argsHash);
            if (this.overrideNesting >= MAX_OVERRIDE_NESTING) return undefined;
            this.overrideNesting++;
            try {
              const raw = override.value(override.vars.length === 0 ? EMPTY_ARGS : this.templateVars(override.vars, obj, args), a);
              return this.toOutput(raw, type, a, b, true);
            } finally {
              this.overrideNesting--;
            }
          };
    // what mutations and representations stored wins; `author` also follows a stored `authorId`
    const relationKeys = this.relationKeys(field);
    return (obj, args, argsHash) => {
      const stored = obj.$s;
      if (stored !== undefined) {
        if (Object.hasOwn(stored, name)) {
          const [a, b] = slot(obj, argsHash);
          return this.toOutput(stored[name], type, a, b, isNonNullType(type));
        }
        for (const key of relationKeys) {
          if (Object.hasOwn(stored, key)) {
            const [a, b] = slot(obj, argsHash);
            return this.byIds(stored[key], type, a, b);
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
      const plan = this.objects.get('_Service')!;
      return () => new plan.Ctor(plan.hash, plan.hash2, undefined, { sdl: this.settings.sourceSdl }, undefined);
    }
    if (isQueryRoot && name === '_entities' && field.args.some((a) => a.name === 'representations')) {
      return (_obj, args) => this.entities(args?.representations);
    }
    if (isMutation) {
      const plan = mutationPlan(fp, this);
      if (plan !== undefined) {
        const generic = this.slotImpl(fp, false);
        return (obj, args, argsHash) => this.mutate(plan, fp, obj, args ?? EMPTY_ARGS, argsHash, generic);
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
    const lookup = this.lookupImpl(fp);
    if (lookup !== undefined) return lookup;
    const connection = this.connectionImpl(fp);
    if (connection !== undefined) return connection;
    const related = this.relatedIdImpl(fp);
    if (related !== undefined) return related;
    return this.slotImpl(fp, isQueryRoot);
  }

  /** The generic value: by type at the field's slot; root list fields also list what mutations created. */
  private slotImpl(fp: FieldPlan, isQueryRoot: boolean): Impl {
    const { field } = fp;
    const examples = this.examplesImpl(fp);
    if (examples !== undefined) return examples;
    const length = listLengthOf(field) ?? this.settings.listLength;
    const gen = this.typeGen(field.type, fp, length, true);
    const limitArg = field.args.find((a) => LIMIT_ARGS.includes(a.name) && getNamedType(a.type).name === 'Int')?.name;
    const listed = isQueryRoot ? this.listedType(field.type) : undefined;
    const connectionNode = isListType(unwrapNonNull(field.type)) ? undefined : this.connectionNodeType(getNamedType(field.type));
    const created = isQueryRoot ? (listed ?? connectionNode) : undefined;
    // @listLength on a field answering a connection sizes its edges and nodes
    const connectionLength = isListType(unwrapNonNull(field.type)) || !this.isConnection(getNamedType(field.type)) ? undefined : listLengthOf(field);
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
    const plan = this.objects.get(item.name);
    return plan?.identity === undefined ? undefined : plan;
  }

  private createdObjects(plan: ObjectPlan): readonly MockObject[] | undefined {
    const created = this.store.createdOf(plan.name);
    if (created.length === 0) return undefined;
    const out: MockObject[] = [];
    for (const entry of created) {
      const obj = this.objectWithId(plan, entry.id, false);
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
        this.spend(n);
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
      const plan = this.objects.get(type.name)!;
      return (a, b, extras) => {
        const obj = this.objectAt(plan, a, b, nonNull);
        if (extras !== undefined && obj !== null) obj.$x = extras;
        return obj;
      };
    }
    const possible = this.schema.getPossibleTypes(type).map((t) => this.objects.get(t.name)!);
    if (possible.length === 0) return () => null;
    return (a, b, extras) => {
      const obj = this.objectAt(possible[mix(a, 0x7e5)! % possible.length]!, a, b, nonNull);
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
        return this.toOutput(examples[a % examples.length], type, a, b, true);
      };
    }
    if (isLeafType(named)) return undefined;
    const length = listLengthOf(fp.field) ?? this.settings.listLength;
    return (obj, _args, argsHash) => {
      const [a, b] = slot(obj, argsHash);
      if (!list) return this.toOutput(examples[a % examples.length], type, a, b, true);
      const n = between(mix(a, LEN_KEY), length.min, length.max);
      this.spend(n);
      const items = Array.from({ length: n }, (_, i) => examples[(a + i) % examples.length]);
      return this.toOutput(items, type, a, b, true);
    };
  }

  private leafDirectivesOf(fp: FieldPlan, leaf: GraphQLLeafType): Gen | undefined {
    const directives = valueDirectives(fp.field, leaf);
    if (directives.examples !== undefined) return examplesGen(directives.examples);
    if (directives.fake !== undefined) return fakeGen(this.fakes, directives.fake, leaf) ?? undefined;
    return undefined;
  }

  // --- objects -----------------------------------------------------------------------------------

  /** The object of `plan` at a slot: by its generated id when the type has one. Null when deleted (unless `evenDeleted`). */
  objectAt(plan: ObjectPlan, a: number, b: number, evenDeleted: boolean): MockObject | null {
    const identity = plan.identity;
    if (identity === undefined) return new plan.Ctor(a, b, undefined, undefined, undefined);
    if (identity.kind !== 'uuid') return this.objectWithId(plan, identity.make(a, b), evenDeleted);
    // the id string is made only if something needs it: the store (when not empty), or a query reading it
    let id: unknown;
    let stored: Record<string, unknown> | undefined;
    if (!this.store.empty) {
      id = identity.make(a, b);
      const entry = this.store.get(plan.name, id);
      if (entry !== undefined) {
        if (entry.deleted && !evenDeleted) return null;
        stored = entry.fields;
      }
    }
    return new plan.Ctor(mix(plan.hash, a), mix(plan.hash2, b), id, stored, undefined, a, b);
  }

  /** The object of `plan` with `id`: its lanes come from the id, its stored fields from the store. */
  objectWithId(plan: ObjectPlan, id: unknown, evenDeleted: boolean): MockObject | null {
    let stored: Record<string, unknown> | undefined;
    if (!this.store.empty) {
      const entry = this.store.get(plan.name, id);
      if (entry !== undefined) {
        if (entry.deleted && !evenDeleted) return null;
        stored = entry.fields;
      }
    }
    return this.withLanesOf(plan, id, stored);
  }

  /** An object's lanes from its id: a generated UUID gives back its lanes, a number mixes in, other text is hashed. */
  private withLanesOf(plan: ObjectPlan, id: unknown, stored: Record<string, unknown> | undefined): MockObject {
    if (plan.identity?.kind === 'uuid' && decodeUuid(id)) {
      const a = decodedA;
      const b = decodedB;
      return new plan.Ctor(mix(plan.hash, a), mix(plan.hash2, b), id, stored, undefined, a, b);
    }
    const n = typeof id === 'number' ? id : typeof id === 'string' && /^-?\d{1,15}$/.test(id) ? Number(id) : undefined;
    if (n !== undefined) return new plan.Ctor(mix(plan.hash, n), mix(plan.hash2, n ^ 0x5bd1e995), id, stored, undefined);
    const key = String(id);
    return new plan.Ctor(hashString(plan.hash, key), hashString(plan.hash2, key), id, stored, undefined);
  }

  /** An object given as a record (a stored nested object, an override, a representation): its fields answer first. */
  private objectFromRecord(type: GraphQLObjectType | GraphQLAbstractType, record: Record<string, unknown>, a: number, b: number): MockObject | null {
    let plan: ObjectPlan | undefined;
    if (isObjectType(type)) plan = this.objects.get(type.name);
    else {
      const named = typeof record.__typename === 'string' ? this.objects.get(record.__typename) : undefined;
      const possible = this.schema.getPossibleTypes(type);
      plan = named !== undefined && possible.includes(named.type) ? named : this.objects.get(possible[mix(a, 0x7e5) % Math.max(1, possible.length)]?.name ?? '');
    }
    if (plan === undefined) return null;
    const identity = plan.identity;
    if (identity === undefined) return new plan.Ctor(a, b, undefined, record, undefined);
    const given = record[identity.field];
    const id = given === undefined || given === null || typeof given === 'object' ? identity.make(a, b) : given;
    const entry = this.store.get(plan.name, id);
    return this.withLanesOf(plan, id, entry === undefined ? record : { ...entry.fields, ...record });
  }

  /** A stored or overridden value in the field's type: leaves coerced, records made objects, ids looked up. */
  toOutput(raw: unknown, type: GraphQLOutputType, a: number, b: number, evenDeleted: boolean): unknown {
    if (raw === undefined || raw === null) return null;
    if (isNonNullType(type)) return this.toOutput(raw, type.ofType, a, b, true);
    if (isListType(type)) {
      let items: unknown = raw;
      if (typeof raw === 'string' && !isLeafType(getNamedType(type))) items = parseJson(raw);
      const list = Array.isArray(items) ? items : [items];
      const out: unknown[] = [];
      list.forEach((item, i) => {
        const value = this.toOutput(item, type.ofType, mix(a, i + 1), mix(b, i + 1), false);
        if (value !== null || isLeafType(getNamedType(type))) out.push(value);
      });
      return out;
    }
    if (isLeafType(type)) return coerceLeaf(raw, type);
    if (raw instanceof MockObject) return raw;
    let value = raw;
    if (typeof value === 'string') {
      const parsed = parseJson(value);
      if (typeof parsed === 'object' && parsed !== null) value = parsed;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return this.objectFromRecord(type, value as Record<string, unknown>, a, b);
    return this.byIds(value, type, a, b, evenDeleted);
  }

  /** Objects by id (a stored `authorId`, a static override naming an id). */
  private byIds(ids: unknown, type: GraphQLOutputType, a: number, b: number, evenDeleted = false): unknown {
    if (ids === undefined || ids === null) return null;
    if (isNonNullType(type)) return this.byIds(ids, type.ofType, a, b, true);
    if (isListType(type)) {
      const list = Array.isArray(ids) ? ids : [ids];
      return list.map((id, i) => this.byIds(id, type.ofType, mix(a, i + 1), mix(b, i + 1), false)).filter((v) => v !== null);
    }
    const named = type;
    if (typeof ids === 'object') return this.toOutput(ids, type, a, b, evenDeleted);
    if (isObjectType(named)) {
      const plan = this.objects.get(named.name)!;
      return this.objectWithId(plan, ids, evenDeleted);
    }
    if (isAbstractType(named)) return this.abstractById(named, ids, evenDeleted);
    return null;
  }

  /** The object with an id behind an interface or union: a stored one's type, else the type a generated id was made for, else one chosen by the id. */
  abstractById(type: GraphQLAbstractType, id: unknown, evenDeleted: boolean): MockObject | null {
    const possible = this.schema.getPossibleTypes(type).map((t) => this.objects.get(t.name)!);
    if (possible.length === 0) return null;
    if (!this.store.empty) {
      for (const plan of possible) {
        if (this.store.get(plan.name, id) !== undefined) return this.objectWithId(plan, id, evenDeleted);
      }
    }
    if (decodeUuid(id)) {
      const tag = decodedTag;
      const made = possible.find((plan) => plan.identity?.kind === 'uuid' && typeTag(plan.name) === tag);
      if (made !== undefined) return this.objectWithId(made, id, evenDeleted);
    }
    return this.objectWithId(possible[hashString(this.settings.seed, String(id)) % possible.length]!, id, evenDeleted);
  }

  // --- lookups by id, connections, related ids ---------------------------------------------------

  /** `user(id: …)`, `node(id: …)`, `product(upc: …)`, `user(where: {id})`, `users(ids: […])`: the objects with those ids. */
  private lookupImpl(fp: FieldPlan): Impl | undefined {
    const { field } = fp;
    const type = field.type;
    const named = getNamedType(type);
    if (!isObjectType(named) && !isAbstractType(named)) return undefined;
    const identityField = isObjectType(named) ? this.objects.get(named.name)?.identity?.field : 'id';
    const list = isListType(unwrapNonNull(type));
    const nonNull = isNonNullType(type);
    const fallback = this.slotImpl(fp, false);
    if (!list) {
      const direct = field.args.find((a) => (a.name === 'id' || a.name === identityField) && isLeafType(getNamedType(a.type)) && !isListType(unwrapNonNull(a.type)));
      const container = direct === undefined ? field.args.find((a) => ID_CONTAINER_ARGS.includes(a.name) && isInputObjectType(getNamedType(a.type))) : undefined;
      if (direct === undefined && container === undefined) return undefined;
      const containerKey =
        container === undefined ? undefined : (Object.keys((getNamedType(container.type) as never as { getFields(): Record<string, unknown> }).getFields()).find((k) => k === 'id' || k === identityField) ?? undefined);
      if (container !== undefined && containerKey === undefined) return undefined;
      return (obj, args, argsHash) => {
        let id: unknown;
        if (direct !== undefined) id = args?.[direct.name];
        else {
          const holder = args?.[container!.name];
          id = typeof holder === 'object' && holder !== null ? (holder as Args)[containerKey!] : undefined;
        }
        if (id === undefined || id === null) return fallback(obj, args, argsHash);
        const found = isObjectType(named) ? this.objectWithId(this.objects.get(named.name)!, id, false) : this.abstractById(named, id, false);
        if (found === null && nonNull) {
          throw new GraphQLError(`${named.name} ${JSON.stringify(id)} was deleted`, { extensions: { code: 'NOT_FOUND' } });
        }
        return found;
      };
    }
    const idsArg = field.args.find((a) => (a.name === 'ids' || a.name === `${identityField}s`) && isListType(unwrapNonNull(a.type)));
    if (idsArg === undefined) return undefined;
    return (obj, args, argsHash) => {
      const ids = args?.[idsArg.name];
      if (!Array.isArray(ids)) return fallback(obj, args, argsHash);
      const out: unknown[] = [];
      for (const id of ids) {
        const found = isObjectType(named) ? this.objectWithId(this.objects.get(named.name)!, id, false) : this.abstractById(named, id, false);
        if (found !== null) out.push(found);
      }
      return out;
    };
  }

  /** A type with `edges { node }`: a Relay connection. */
  private isConnection(type: GraphQLOutputType): boolean {
    if (!isObjectType(type)) return false;
    const edge = type.getFields().edges === undefined ? undefined : getNamedType(type.getFields().edges!.type);
    return isObjectType(edge) && edge.getFields().node !== undefined;
  }

  /** The node type of a Relay connection type (`XConnection { edges { node } nodes }`). */
  private connectionNodeType(type: GraphQLOutputType): ObjectPlan | undefined {
    if (!isObjectType(type)) return undefined;
    const fields = type.getFields();
    const nodes = fields.nodes === undefined ? undefined : getNamedType(fields.nodes.type);
    const edge = fields.edges === undefined ? undefined : getNamedType(fields.edges.type);
    const node = isObjectType(edge) && edge.getFields().node !== undefined ? getNamedType(edge.getFields().node!.type) : nodes;
    if (!isObjectType(node)) return undefined;
    const plan = this.objects.get(node.name);
    return plan?.identity === undefined ? undefined : plan;
  }

  /** On a connection type: `edges` and `nodes` list the same objects (nodes[i] is edges[i].node); `totalCount` counts at least them. */
  private connectionImpl(fp: FieldPlan): Impl | undefined {
    const connection = fp.owner.type;
    const fields = connection.getFields();
    const edgesField = fields.edges;
    const edgeType = edgesField === undefined ? undefined : getNamedType(edgesField.type);
    const edgePlan = isObjectType(edgeType) && edgeType.getFields().node !== undefined ? this.objects.get(edgeType.name) : undefined;
    if (edgePlan === undefined || !isListType(unwrapNonNull(edgesField!.type))) return undefined;
    const nodeField = edgePlan.fields.get('node')!;
    const length = listLengthOf(edgesField!) ?? this.settings.listLength;
    const edgesHash = hashString(fp.owner.hash, 'edges');
    const edges = (conn: MockObject): MockObject[] => {
      const out: MockObject[] = [];
      for (const extra of conn.$x?.extra ?? []) {
        out.push(new edgePlan.Ctor(mix(extra.$h, EDGES), mix(extra.$h2, EDGES), undefined, { node: extra }, undefined));
      }
      const a = mix(conn.$h, edgesHash);
      const b = mix(conn.$h2, edgesHash);
      const sized = conn.$x?.length ?? length;
      let n = between(mix(a, LEN_KEY), sized.min, sized.max);
      this.spend(n);
      const limit = conn.$x?.limit;
      if (limit !== undefined) n = Math.min(n, Math.max(0, limit - out.length));
      for (let i = 0; i < n; i++) {
        const edge = this.objectAt(edgePlan, mix(a, i + 1), mix(b, i + 1), true)!;
        const node = nodeField.value(edge, undefined, 0);
        if (node === null && !isNonNullType(nodeField.field.type)) continue; // deleted
        edge.$s = { ...edge.$s, node };
        out.push(edge);
      }
      if (limit !== undefined && out.length > limit) out.length = limit;
      return out;
    };
    if (fp.name === 'edges') return (conn) => edges(conn);
    if (fp.name === 'nodes' && isListType(unwrapNonNull(fp.field.type))) return (conn) => edges(conn).map((edge) => edge.$s!.node);
    if (/^(totalCount|total|count|totalResults)$/.test(fp.name) && getNamedType(fp.field.type).name === 'Int') {
      return (conn) => edges(conn).length + (mix(conn.$h, fp.hash) % 100);
    }
    return undefined;
  }

  /** `authorId` next to `author`: the id of the object `author` answers. */
  private relatedIdImpl(fp: FieldPlan): Impl | undefined {
    const match = /^(.+?)(Id|ID|_id)$/.exec(fp.name);
    if (match === null || !isLeafType(getNamedType(fp.field.type)) || isListType(unwrapNonNull(fp.field.type))) return undefined;
    const related = fp.owner.fields.get(match[1]!);
    if (related === undefined || related.field.args.length > 0 || isListType(unwrapNonNull(related.field.type))) return undefined;
    const named = getNamedType(related.field.type);
    if (!isObjectType(named) && !isAbstractType(named)) return undefined;
    if (isObjectType(named) && this.objects.get(named.name)?.identity === undefined) return undefined;
    const leaf = getNamedType(fp.field.type) as GraphQLLeafType;
    return (obj) => {
      const target = related.value(obj, undefined, 0);
      if (!(target instanceof MockObject)) return null;
      return coerceLeaf(idOf(target), leaf);
    };
  }

  // --- overrides' variables ---------------------------------------------------------------------

  private templateVars(names: readonly string[], obj: MockObject, args: Args | undefined): Record<string, unknown> {
    const vars: Record<string, unknown> = {};
    for (const name of names) {
      if (name.startsWith('args.')) {
        let value: unknown = args;
        for (const key of name.slice(5).split('.')) value = typeof value === 'object' && value !== null ? (value as Args)[key] : undefined;
        vars[name] = value;
      } else if (name.startsWith('parent.')) {
        const sibling = obj.$p.fields.get(name.slice(7));
        const value = sibling?.value(obj, EMPTY_ARGS, sibling.field.args.length > 0 ? hashValue(0, EMPTY_ARGS) : 0);
        vars[name] = value instanceof MockObject ? (idOf(value) ?? '') : value;
      }
    }
    return vars;
  }

  // --- federation -------------------------------------------------------------------------------

  private entities(representations: unknown): unknown[] {
    if (!Array.isArray(representations)) return [];
    return representations.map((rep, i) => {
      if (typeof rep !== 'object' || rep === null || typeof (rep as Args).__typename !== 'string') {
        return new GraphQLError(`representation ${i} has no __typename`, { extensions: { code: 'BAD_USER_INPUT' } });
      }
      const typename = (rep as Args).__typename as string;
      const plan = this.objects.get(typename);
      if (plan === undefined || !this.entityTypes.has(typename)) {
        return new GraphQLError(`representation ${i}: ${typename} is not an entity of this subgraph (entities: ${[...this.entityTypes].join(', ') || 'none'})`, {
          extensions: { code: 'BAD_USER_INPUT' },
        });
      }
      const { __typename: _, ...fields } = rep as Args;
      const h = hashValue(plan.hash, fields);
      return this.objectFromRecord(plan.type, fields, h, mix(h, plan.hash2));
    });
  }

  // --- mutations --------------------------------------------------------------------------------

  /** The object type a mutation's noun names (`deleteUser` → User), if any. */
  typeByNoun(noun: string): ObjectPlan | undefined {
    const lower = noun.toLowerCase().replace(/_/g, '');
    return this.byLowerName.get(lower) ?? this.byLowerName.get(lower.replace(/ies$/, 'y')) ?? this.byLowerName.get(lower.replace(/e?s$/, ''));
  }

  private mutate(plan: MutationPlan, fp: FieldPlan, obj: MockObject, args: Args, argsHash: number, generic: Impl): unknown {
    const entity = plan.entity;
    const input = plan.input(args);
    let id = plan.id(args, input);
    let target: MockObject | null = null;
    switch (plan.verb) {
      case 'create':
      case 'upsert': {
        // an upsert naming an id updates that object (it may be one the mock lists already); without one it creates
        const creates = plan.verb === 'create' || id === undefined;
        if (id === undefined) {
          const n = this.store.nextCreation();
          const h = mix(mix(this.settings.seed, entity.hash), n);
          id = entity.identity!.make(h, mix(h, entity.hash2));
        }
        this.store.write(entity.name, id, plan.fields(input, id), creates);
        target = this.objectWithId(entity, id, true);
        break;
      }
      case 'update': {
        if (id === undefined) return generic(obj, args, argsHash);
        this.store.write(entity.name, id, plan.fields(input, id), false);
        target = this.objectWithId(entity, id, true);
        break;
      }
      case 'delete': {
        if (id === undefined) return generic(obj, args, argsHash);
        target = this.objectWithId(entity, id, true);
        if (target !== null) target.$s = { ...target.$s };
        this.store.delete(entity.name, id);
        break;
      }
    }
    return plan.answer(target, id, obj, args, input, argsHash, generic);
  }
}

/** 16 bits of a type's name, carried by the UUIDs made for it (so `node(id:)` knows the type). */
function typeTag(name: string): number {
  return hashString(0x7a6, name) & 0xffff;
}

/** An object's id (made from its generation lanes on first read). */
export function idOf(obj: MockObject): unknown {
  if (obj.$id !== undefined) return obj.$id;
  const identity = obj.$p.identity;
  if (identity === undefined) return undefined;
  return (obj.$id = identity.make(obj.$ga, obj.$gb));
}

function resolveType(value: unknown): string | undefined {
  return value instanceof MockObject ? value.$t : undefined;
}

function unwrapNonNull<T extends GraphQLOutputType | GraphQLInputType>(type: T): T {
  return (isNonNullType(type) ? type.ofType : type) as T;
}

const BUILT_IN_SCALARS = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);
export const isBuiltInScalar = (name: string): boolean => BUILT_IN_SCALARS.has(name);

/** Custom scalars answer what they are given; Dates and bigints are written as JSON can carry them. */
function installScalar(type: GraphQLScalarType): void {
  const shape = scalarShape(type.name);
  const dateOnly = shape.kind === 'date' && shape.shape === 'date';
  const original = type.serialize;
  if (original.name !== 'identityFunc') return; // a scalar someone already implemented
  type.serialize = (value: unknown) => {
    if (value instanceof Date) return dateOnly ? value.toISOString().slice(0, 10) : value.toISOString();
    if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
    return value;
  };
  if (shape.kind === 'bigint') {
    // integers beyond 2^53 as written (text) rather than rounded
    const untyped = type.parseLiteral;
    type.parseLiteral = (node, variables) => {
      if (node.kind === Kind.INT && !Number.isSafeInteger(Number(node.value))) return node.value;
      return untyped.call(type, node, variables);
    };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Coercer = (raw: unknown) => unknown;
const coercers = new WeakMap<GraphQLLeafType, Coercer>();

/** A stored or templated value as the leaf type answers it (one function per type, chosen once: type checks are not free). */
export function coerceLeaf(raw: unknown, leaf: GraphQLLeafType): unknown {
  return coercerOf(leaf)(raw);
}

function coercerOf(leaf: GraphQLLeafType): Coercer {
  let coerce = coercers.get(leaf);
  if (coerce === undefined) coercers.set(leaf, (coerce = coercerFor(leaf)));
  return coerce;
}

function coercerFor(leaf: GraphQLLeafType): Coercer {
  if (isEnumType(leaf)) return (raw) => (raw === undefined || raw === null ? null : typeof raw === 'string' ? raw : String(raw));
  switch (leaf.name) {
    case 'String':
      return (raw) => (raw === undefined || raw === null ? null : typeof raw === 'string' ? raw : typeof raw === 'object' ? JSON.stringify(raw) : String(raw));
    case 'ID':
      return (raw) => (raw === undefined || raw === null ? null : typeof raw === 'string' || typeof raw === 'number' ? raw : String(raw));
    case 'Int':
      return (raw) => {
        if (raw === undefined || raw === null) return null;
        const n = typeof raw === 'number' ? raw : Number(raw);
        return Number.isFinite(n) ? Math.trunc(n) : raw;
      };
    case 'Float':
      return (raw) => {
        if (raw === undefined || raw === null) return null;
        const n = typeof raw === 'number' ? raw : Number(raw);
        return Number.isFinite(n) ? n : raw;
      };
    case 'Boolean':
      return (raw) => (raw === undefined || raw === null ? null : typeof raw === 'boolean' ? raw : raw === 'true' ? true : raw === 'false' ? false : Boolean(raw));
    default: {
      const shape = scalarShape(leaf.name);
      return (raw) => {
        if (raw === undefined || raw === null) return null;
        if (typeof raw === 'string' && shape.kind === 'json') return parseJson(raw);
        if (typeof raw === 'string' && (shape.kind === 'number' || shape.kind === 'bigint') && /^-?\d+(\.\d+)?$/.test(raw)) {
          return shape.kind === 'number' && shape.spec.asString ? raw : Number(raw);
        }
        return raw;
      };
    }
  }
}

