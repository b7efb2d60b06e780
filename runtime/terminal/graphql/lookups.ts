import { getNamedType, GraphQLError, isAbstractType, isInputObjectType, isLeafType, isListType, isNonNullType, isObjectType, type GraphQLLeafType } from 'graphql';
import type { FieldContext } from './field-context.js';
import { idOf, MockObject, type Args, type FieldPlan, type Impl } from './mock-object.js';
import { coerceLeaf } from './scalars.js';
import { unwrapNonNull } from './unwrap.js';

/** Arguments that hold an id inside an input object (`user(where: {id})`). */
const ID_CONTAINER_ARGS = ['where', 'by', 'filter'];

/** `user(id: …)`, `node(id: …)`, `product(upc: …)`, `user(where: {id})`, `users(ids: […])`: the objects with those ids. */
export function lookupImpl(cx: FieldContext, fp: FieldPlan, slotImpl: () => Impl): Impl | undefined {
  const { field } = fp;
  const type = field.type;
  const named = getNamedType(type);
  if (!isObjectType(named) && !isAbstractType(named)) return undefined;
  const identityField = isObjectType(named) ? cx.plans.get(named.name)?.identity?.field : 'id';
  const list = isListType(unwrapNonNull(type));
  const nonNull = isNonNullType(type);
  const fallback = slotImpl();
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
      const found = isObjectType(named) ? cx.objects.objectWithId(cx.plans.get(named.name)!, id, false) : cx.objects.abstractById(named, id, false);
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
      const found = isObjectType(named) ? cx.objects.objectWithId(cx.plans.get(named.name)!, id, false) : cx.objects.abstractById(named, id, false);
      if (found !== null) out.push(found);
    }
    return out;
  };
}

/** `authorId` next to `author`: the id of the object `author` answers. */
export function relatedIdImpl(cx: FieldContext, fp: FieldPlan): Impl | undefined {
  const match = /^(.+?)(Id|ID|_id)$/.exec(fp.name);
  if (match === null || !isLeafType(getNamedType(fp.field.type)) || isListType(unwrapNonNull(fp.field.type))) return undefined;
  const related = fp.owner.fields.get(match[1]!);
  if (related === undefined || related.field.args.length > 0 || isListType(unwrapNonNull(related.field.type))) return undefined;
  const named = getNamedType(related.field.type);
  if (!isObjectType(named) && !isAbstractType(named)) return undefined;
  if (isObjectType(named) && cx.plans.get(named.name)?.identity === undefined) return undefined;
  const leaf = getNamedType(fp.field.type) as GraphQLLeafType;
  return (obj) => {
    const target = related.value(obj, undefined, 0);
    if (!(target instanceof MockObject)) return null;
    return coerceLeaf(idOf(target), leaf);
  };
}
