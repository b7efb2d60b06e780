import { getNamedType, isListType, isNonNullType, isObjectType, type GraphQLOutputType } from 'graphql';
import { between, hashString, mix } from '../fake-data/index.js';
import type { FieldContext } from './field-context.js';
import { listLengthOf } from './mock-directives.js';
import { MockObject, type FieldPlan, type Impl, type ObjectPlan } from './mock-object.js';
import { unwrapNonNull } from './unwrap.js';

/** Hash keys of a list's length and of an edge made for an object. */
export const LEN_KEY = 0x6c656e; // "len"
const EDGES = 0x65646765;

/** A type with `edges { node }`: a Relay connection. */
export function isConnection(type: GraphQLOutputType): boolean {
  if (!isObjectType(type)) return false;
  const edge = type.getFields().edges === undefined ? undefined : getNamedType(type.getFields().edges!.type);
  return isObjectType(edge) && edge.getFields().node !== undefined;
}

/** The node type of a Relay connection type (`XConnection { edges { node } nodes }`). */
export function connectionNodeType(cx: FieldContext, type: GraphQLOutputType): ObjectPlan | undefined {
  if (!isObjectType(type)) return undefined;
  const fields = type.getFields();
  const nodes = fields.nodes === undefined ? undefined : getNamedType(fields.nodes.type);
  const edge = fields.edges === undefined ? undefined : getNamedType(fields.edges.type);
  const node = isObjectType(edge) && edge.getFields().node !== undefined ? getNamedType(edge.getFields().node!.type) : nodes;
  if (!isObjectType(node)) return undefined;
  const plan = cx.plans.get(node.name);
  return plan?.identity === undefined ? undefined : plan;
}

/** On a connection type: `edges` and `nodes` list the same objects (nodes[i] is edges[i].node); `totalCount` counts at least them. */
export function connectionImpl(cx: FieldContext, fp: FieldPlan): Impl | undefined {
  const connection = fp.owner.type;
  const fields = connection.getFields();
  const edgesField = fields.edges;
  const edgeType = edgesField === undefined ? undefined : getNamedType(edgesField.type);
  const edgePlan = isObjectType(edgeType) && edgeType.getFields().node !== undefined ? cx.plans.get(edgeType.name) : undefined;
  if (edgePlan === undefined || !isListType(unwrapNonNull(edgesField!.type))) return undefined;
  const nodeField = edgePlan.fields.get('node')!;
  const length = listLengthOf(edgesField!) ?? cx.listLength;
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
    cx.budget.spend(n);
    const limit = conn.$x?.limit;
    if (limit !== undefined) n = Math.min(n, Math.max(0, limit - out.length));
    for (let i = 0; i < n; i++) {
      const edge = cx.objects.objectAt(edgePlan, mix(a, i + 1), mix(b, i + 1), true)!;
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
