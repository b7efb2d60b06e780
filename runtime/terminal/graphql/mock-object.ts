import type { GraphQLField, GraphQLObjectType } from 'graphql';

/**
 * An object the mock answers: two 32-bit lanes ($h, $h2) from which its fields derive, its id
 * when its type has an identity field (made from $ga/$gb only when read: building id strings was
 * most of the cost of an object), the fields stored for it (mutations, representations,
 * override objects) and what a list below it adds. Each object type gets a subclass whose
 * prototype carries its fields without arguments as getters (see mock-model.ts). `$` cannot
 * start a GraphQL name, so these never clash with a field.
 */
export class MockObject {
  declare readonly $t: string;
  declare readonly $p: ObjectPlan;

  constructor(
    public $h: number,
    public $h2: number,
    public $id: unknown,
    public $s: Record<string, unknown> | undefined,
    public $x: ListExtras | undefined,
    /** The lanes its id was generated from (then $id is made when first read), else 0. */
    public $ga = 0,
    public $gb = 0,
  ) {}
}

/** What a list below this object adds: objects created by mutations, a page size asked for, a connection field's @listLength. */
export interface ListExtras {
  limit?: number;
  length?: { min: number; max: number };
  extra?: readonly MockObject[];
}

export type Args = Record<string, unknown>;
export type Impl = (obj: MockObject, args: Args | undefined, argsHash: number) => unknown;

export interface Identity {
  readonly field: string;
  /** uuid: generated ids encode their lanes (they are recognised and decoded); number: the lanes come from the number; other: from the id's text. */
  readonly kind: 'uuid' | 'number' | 'other';
  make(a: number, b: number): unknown;
}

export interface ObjectPlan {
  readonly name: string;
  readonly type: GraphQLObjectType;
  readonly hash: number;
  readonly hash2: number;
  readonly identity: Identity | undefined;
  readonly Ctor: new ($h: number, $h2: number, $id: unknown, $s: Record<string, unknown> | undefined, $x: ListExtras | undefined, $ga?: number, $gb?: number) => MockObject;
  readonly fields: Map<string, FieldPlan>;
}

export interface FieldPlan {
  readonly name: string;
  readonly hash: number;
  readonly hash2: number;
  readonly field: GraphQLField<unknown, unknown>;
  readonly owner: ObjectPlan;
  /** The field's value on an object (arguments hashed by the caller; 0 without arguments). */
  value: Impl;
}

/** An object's id (made from its generation lanes on first read). */
export function idOf(obj: MockObject): unknown {
  if (obj.$id !== undefined) return obj.$id;
  const identity = obj.$p.identity;
  if (identity === undefined) return undefined;
  return (obj.$id = identity.make(obj.$ga, obj.$gb));
}

/** An abstract type's resolveType: the mock object's own type. */
export function resolveType(value: unknown): string | undefined {
  return value instanceof MockObject ? value.$t : undefined;
}
