import { getNamedType, isAbstractType, isLeafType, isListType, isNonNullType, isObjectType, type GraphQLAbstractType, type GraphQLObjectType, type GraphQLOutputType, type GraphQLSchema } from 'graphql';
import { decodeUuid, decodedA, decodedB, decodedTag, hashString, mix } from '../fake-data/index.js';
import { MockObject, type ObjectPlan } from './mock-object.js';
import { coerceLeaf, parseJson } from './scalars.js';
import type { MockStore } from './store.js';

/** 16 bits of a type's name, carried by the UUIDs made for it (so `node(id:)` knows the type). */
export function typeTag(name: string): number {
  return hashString(0x7a6, name) & 0xffff;
}

/**
 * The mock's objects: at a slot (lanes), by id (lanes from the id, stored fields from the
 * store), from records (stored nested objects, overrides, representations), and stored or
 * overridden values turned into the field's type.
 */
export class MockObjects {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly plans: ReadonlyMap<string, ObjectPlan>,
    private readonly store: MockStore,
    private readonly seed: number,
  ) {}

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
  objectFromRecord(type: GraphQLObjectType | GraphQLAbstractType, record: Record<string, unknown>, a: number, b: number): MockObject | null {
    let plan: ObjectPlan | undefined;
    if (isObjectType(type)) plan = this.plans.get(type.name);
    else {
      const named = typeof record.__typename === 'string' ? this.plans.get(record.__typename) : undefined;
      const possible = this.schema.getPossibleTypes(type);
      plan = named !== undefined && possible.includes(named.type) ? named : this.plans.get(possible[mix(a, 0x7e5) % Math.max(1, possible.length)]?.name ?? '');
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
  byIds(ids: unknown, type: GraphQLOutputType, a: number, b: number, evenDeleted = false): unknown {
    if (ids === undefined || ids === null) return null;
    if (isNonNullType(type)) return this.byIds(ids, type.ofType, a, b, true);
    if (isListType(type)) {
      const list = Array.isArray(ids) ? ids : [ids];
      return list.map((id, i) => this.byIds(id, type.ofType, mix(a, i + 1), mix(b, i + 1), false)).filter((v) => v !== null);
    }
    const named = type;
    if (typeof ids === 'object') return this.toOutput(ids, type, a, b, evenDeleted);
    if (isObjectType(named)) {
      const plan = this.plans.get(named.name)!;
      return this.objectWithId(plan, ids, evenDeleted);
    }
    if (isAbstractType(named)) return this.abstractById(named, ids, evenDeleted);
    return null;
  }

  /** The object with an id behind an interface or union: a stored one's type, else the type a generated id was made for, else one chosen by the id. */
  abstractById(type: GraphQLAbstractType, id: unknown, evenDeleted: boolean): MockObject | null {
    const possible = this.schema.getPossibleTypes(type).map((t) => this.plans.get(t.name)!);
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
    return this.objectWithId(possible[hashString(this.seed, String(id)) % possible.length]!, id, evenDeleted);
  }
}
