import { isEnumType, Kind, type GraphQLLeafType, type GraphQLScalarType } from 'graphql';
import { scalarShape } from './leaf-gen.js';

/** Leaf values: custom scalars serialised, stored and templated values coerced to the leaf type that answers them. */

const BUILT_IN_SCALARS = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);
export const isBuiltInScalar = (name: string): boolean => BUILT_IN_SCALARS.has(name);

/** Custom scalars answer what they are given; Dates and bigints are written as JSON can carry them. */
export function installScalar(type: GraphQLScalarType): void {
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

export function parseJson(text: string): unknown {
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

export function coercerOf(leaf: GraphQLLeafType): Coercer {
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

