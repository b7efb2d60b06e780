import { StateTooLarge, type Machine, type StatefulService } from '../../../chain/stateful/index.js';
import { bodyChecker } from '../body-schema.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminCall, AdminRoute } from '../router.js';

const checkSet = bodyChecker<{ state: string }>({
  type: 'object',
  additionalProperties: false,
  required: ['state'],
  properties: { state: { type: 'string', minLength: 1 } },
});

function serviceOf(ctx: AdminContext): StatefulService {
  if (ctx.stateful === undefined) throw new AdminError(404, 'no state machines run here: set core.stateful.enabled and state_machines in mock.yaml (mock serve)');
  return ctx.stateful;
}

function machineOf(call: AdminCall): { service: StatefulService; machine: Machine } {
  const service = serviceOf(call.ctx);
  const machine = service.machine(call.params.machine);
  if (machine === undefined) throw new AdminError(404, `no state machine "${call.params.machine}" (GET /__mock/state lists them: ${service.machines.map((m) => m.name).join(', ')})`);
  return { service, machine };
}

/** The machine's states in the order written, each with the transitions that leave it. */
const statesOf = (machine: Machine) => [...machine.states.keys()].map((name) => ({ name, transitions: machine.exits(name) }));

/**
 * `/__mock/state…`: the state machines of core.stateful and their resources (docs/stateful.md,
 * "Admin API"). Reads are open; writes need the editor role when admin auth is on.
 */
export const stateRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'state',
    handler: async ({ ctx }) => {
      const service = serviceOf(ctx);
      const machines = [];
      for (const machine of service.machines) {
        machines.push({ name: machine.name, initial_state: machine.initial, states: [...machine.states.keys()], resources: await service.store.count(machine.name) });
      }
      return ok(machines);
    },
  },
  {
    method: 'DELETE',
    path: 'state',
    handler: async ({ ctx }) => {
      const service = serviceOf(ctx);
      let reset = 0;
      for (const machine of service.machines) reset += await service.store.clear(machine.name);
      ctx.logger.info({ reset }, 'admin: every state machine reset');
      return ok({ message: `every resource of every machine is back to its initial state (${reset} forgotten)`, reset });
    },
  },
  {
    method: 'GET',
    path: 'state/{machine}',
    handler: async (call) => {
      const { service, machine } = machineOf(call);
      return ok({ name: machine.name, initial_state: machine.initial, states: statesOf(machine), resources: await service.resources(machine) });
    },
  },
  {
    method: 'DELETE',
    path: 'state/{machine}',
    handler: async (call) => {
      const { service, machine } = machineOf(call);
      const reset = await service.store.clear(machine.name);
      call.ctx.logger.info({ machine: machine.name, reset }, 'admin: state machine reset');
      return ok({ message: `every resource of ${machine.name} is back to ${machine.initial} (${reset} forgotten)`, reset });
    },
  },
  {
    method: 'GET',
    path: 'state/{machine}/{id}',
    handler: async (call) => {
      const { service, machine } = machineOf(call);
      const { id } = call.params;
      const resource = await service.resource(machine, id);
      if (resource === undefined) throw new AdminError(404, `${machine.name} has no state for resource "${id}": it starts in ${machine.initial} when a request first moves it`);
      return ok({ ...resource, transitions: machine.exits(resource.state) });
    },
  },
  {
    method: 'PUT',
    path: 'state/{machine}/{id}',
    handler: async (call) => {
      const { service, machine } = machineOf(call);
      const { state } = checkSet(call.json(), `PUT /__mock/state/${machine.name}/{id}`);
      if (!machine.states.has(state)) throw new AdminError(400, `${machine.name} has no state "${state}" (its states: ${[...machine.states.keys()].join(', ')})`);
      const resource = await service.setState(machine, call.params.id, state).catch((e: unknown) => {
        if (e instanceof StateTooLarge) throw new AdminError(413, `${e.message}: send a shorter id, or raise core.stateful.max_store_mb in mock.yaml`);
        throw e;
      });
      call.ctx.logger.info({ machine: machine.name, resource: call.params.id, state }, 'admin: resource state set');
      return ok({ ...resource, transitions: machine.exits(state) });
    },
  },
  {
    method: 'DELETE',
    path: 'state/{machine}/{id}',
    handler: async (call) => {
      const { service, machine } = machineOf(call);
      const { id } = call.params;
      // idempotent, as the other resets: a resource without state is where a reset leaves it
      const reset = (await service.store.delete(machine.name, id)) ? 1 : 0;
      call.ctx.logger.info({ machine: machine.name, resource: id }, 'admin: resource state reset');
      return ok({ message: `resource "${id}" of ${machine.name} is back to ${machine.initial}${reset === 0 ? ' (it had no state)' : ''}`, reset });
    },
  },
];
