import { mix } from '../fake-data/index.js';
import { andThen } from '../../store/index.js';
import type { FieldContext } from './field-context.js';
import type { Args, Impl, MockObject } from './mock-object.js';
import type { MutationPlan } from './mutations.js';
import type { MockStore } from './store.js';

/** What a mutation did to which object (an upsert either creates or updates). */
export type Written = 'create' | 'update' | 'delete';

/**
 * A mutation run: the store written (created, updated or deleted), `written` told what it did to
 * which object (the object a delete removed as it was), then the mutation's answer from that object.
 */
export function mutate(
  cx: FieldContext,
  store: MockStore,
  seed: number,
  plan: MutationPlan,
  obj: MockObject,
  args: Args,
  argsHash: number,
  generic: Impl,
  written: (what: Written, target: MockObject) => void,
): unknown {
  const entity = plan.entity;
  const input = plan.input(args);
  const id = plan.id(args, input);
  let target: MockObject | null = null;
  switch (plan.verb) {
    case 'create':
    case 'upsert': {
      // an upsert naming an id updates that object (it may be one the mock lists already); without one it creates
      const upsert = (id: unknown, creates: boolean): unknown => {
        store.write(entity.name, id, plan.fields(input, id), creates);
        const made = cx.objects.objectWithId(entity, id, true);
        if (made !== null) written(creates ? 'create' : 'update', made);
        return plan.answer(made, id, obj, args, input, argsHash, generic);
      };
      if (id !== undefined) return upsert(id, plan.verb === 'create');
      // a shared store numbers creations in one step of its own: the answer waits for the number
      return andThen(store.nextCreation(), (n) => {
        const h = mix(mix(seed, entity.hash), n);
        return upsert(entity.identity!.make(h, mix(h, entity.hash2)), true);
      });
    }
    case 'update': {
      if (id === undefined) return generic(obj, args, argsHash);
      store.write(entity.name, id, plan.fields(input, id), false);
      target = cx.objects.objectWithId(entity, id, true);
      if (target !== null) written('update', target);
      break;
    }
    case 'delete': {
      if (id === undefined) return generic(obj, args, argsHash);
      target = cx.objects.objectWithId(entity, id, true);
      if (target !== null) target.$s = { ...target.$s };
      store.delete(entity.name, id);
      if (target !== null) written('delete', target);
      break;
    }
  }
  return plan.answer(target, id, obj, args, input, argsHash, generic);
}
