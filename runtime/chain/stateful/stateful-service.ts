import { isStackOverflow } from '../../../common/json-depth.js';
import { MockError } from '../../../common/errors.js';
import { splitRequestPath } from '../../match/index.js';
import { queryRecord } from '../mocks/index.js';
import { requestTooDeep, type Answer, type Exchange } from '../exchange/index.js';
import type { TemplateContext, TemplateRuntime } from '../../template/index.js';
import { checkStateful } from './check.js';
import type { StatefulOptions } from './config.js';
import type { IdSource } from './extractor.js';
import { Machine, type MatchedTransitions, type RequestTransition, type TransitionView } from './machine.js';
import { RESOURCE_ID } from './state-response.js';
import { StateStore, StateTooLarge, type StateRecord } from './state-store.js';
import { andThen, type Awaitable } from '../../store/index.js';

/** The machine whose transitions a request matched (found synchronously, before anything is read or stored). */
export interface StatefulMatch {
  machine: Machine;
  /** Undefined for a creation (a transition from initial_state without an id in the request): one is generated. */
  id: string | undefined;
  matched: MatchedTransitions;
}

/** A request whose transitions do not leave the resource's current state (a 409). */
export interface StateConflict {
  machine: string;
  resource: string;
  state: string;
  /** `PUT /api/orders/{order_id}/ship`: the first transition it matched. */
  request: string;
  /** The states the transitions it matched leave. */
  from: string[];
  /** The transitions that do leave the current state. */
  exits: TransitionView[];
}

/**
 * The answer of the state the request moved the resource to, a conflict, a resource too large for
 * the whole store (its id alone: refused, nothing stored), or undefined: the rest of the chain answers.
 */
export type StatefulResult = { answer: Answer } | { conflict: StateConflict } | { tooLarge: StateTooLarge } | undefined;

/** One resource as the admin API shows it. */
export interface ResourceView {
  resource_id: string;
  state: string;
  /** ISO 8601, on the process's clock (virtual while time travel is on). */
  entered_at: string;
}

/**
 * core.stateful at run time: the compiled machines, the store of their resources' states and the
 * clock timed transitions run on. The stage asks it about requests, the admin API about resources.
 */
export class StatefulService {
  readonly machines: readonly Machine[];

  /** Throws MockError MOCK_ERR_CONFIG_INVALID naming the keys of what cannot be compiled. */
  constructor(
    options: StatefulOptions,
    readonly store: StateStore = new StateStore(),
    private readonly clock: () => number = Date.now,
  ) {
    const problems = checkStateful(options, 'core.stateful');
    if (problems.length > 0) throw new MockError('MOCK_ERR_CONFIG_INVALID', problems.join('; '));
    this.machines = options.state_machines.map((machine) => new Machine(machine));
  }

  machine(name: string): Machine | undefined {
    return this.machines.find((m) => m.name === name);
  }

  /**
   * Hot path: the first of `machines` (in the order written) that handles the request: one of its
   * transitions matches the method and path, and the request carries a resource id, or a matching
   * transition leaves initial_state (a creation, such as POST /api/orders).
   */
  match(ex: Exchange, machines: readonly Machine[]): StatefulMatch | undefined {
    const segments = splitRequestPath(ex.path);
    for (const machine of machines) {
      const matched = machine.matchRequest(ex.method, segments);
      if (matched === undefined) continue;
      const id = machine.extract(idSource(ex, matched.params));
      if (id !== undefined || matched.transitions.some((t) => t.from === machine.initial)) return { machine, id, matched };
    }
    return undefined;
  }

  /**
   * Hot path: moves the resource along the transition that leaves its state (timed transitions
   * due first; a transition into the state it is in keeps the instant it entered it, so reading
   * does not hold back a timer) and answers with the new state's response. No transition from its
   * state: a GET or HEAD passes on (reading never conflicts), other methods get a conflict.
   */
  apply(match: StatefulMatch, ex: Exchange, templates: TemplateRuntime): Awaitable<StatefulResult> {
    const { machine } = match;
    const now = this.clock();
    const id = match.id ?? templates.uuid();
    const { transitions, params } = match.matched;
    const step: { current?: StateRecord; chosen?: RequestTransition } = {};
    let stored: Awaitable<StateRecord | undefined>;
    try {
      stored = this.store.update(machine.name, id, (record) => {
        const current = (step.current = machine.settle(record, now));
        const state = current?.state ?? machine.initial;
        step.chosen = transitions.find((t) => t.from === state);
        if (step.chosen === undefined) return current !== record ? current : undefined;
        return current !== undefined && step.chosen.to === current.state ? current : { state: step.chosen.to, enteredAt: now };
      });
    } catch (e) {
      if (e instanceof StateTooLarge) return { tooLarge: e };
      throw e;
    }
    const moved = (): StatefulResult => {
      if (step.chosen !== undefined) return this.answer(machine, step.chosen.to, id, params, ex, templates);
      if (ex.method === 'GET' || ex.method === 'HEAD') return undefined;
      const state = step.current?.state ?? machine.initial;
      const [first] = transitions;
      return { conflict: { machine: machine.name, resource: id, state, request: `${first.method} ${first.path}`, from: [...new Set(transitions.map((t) => t.from))], exits: machine.exits(state) } };
    };
    if (stored instanceof Promise) return stored.then(moved, (e: unknown) => (e instanceof StateTooLarge ? { tooLarge: e } : Promise.reject(e)));
    return moved();
  }

  /** The machine's resources with their current states (timed transitions due applied and kept). */
  async resources(machine: Machine): Promise<ResourceView[]> {
    const now = this.clock();
    const views: ResourceView[] = [];
    for (const [id] of await this.store.list(machine.name)) {
      // through update, so that a request moving the resource meanwhile is not overwritten
      const current = await this.current(machine, id, now);
      if (current !== undefined) views.push(view(id, current));
    }
    return views;
  }

  /** One resource's current state; undefined while it has none (it would start in initial_state). */
  async resource(machine: Machine, id: string): Promise<ResourceView | undefined> {
    const current = await this.current(machine, id, this.clock());
    return current === undefined ? undefined : view(id, current);
  }

  /** Puts the resource in `state` (a state of the machine: the caller checks), entered now; throws StateTooLarge for an id larger than the whole store. */
  async setState(machine: Machine, id: string, state: string): Promise<ResourceView> {
    const record = { state, enteredAt: this.clock() };
    await this.store.set(machine.name, id, record);
    return view(id, record);
  }

  /** The resource's record with the timed transitions due by `now` applied, and kept. */
  private current(machine: Machine, id: string, now: number): Awaitable<StateRecord | undefined> {
    const step: { current?: StateRecord } = {};
    const stored = this.store.update(machine.name, id, (record) => ((step.current = machine.settle(record, now)) !== record ? step.current : undefined));
    return andThen(stored, () => step.current);
  }

  private answer(machine: Machine, state: string, id: string, params: Record<string, string>, ex: Exchange, templates: TemplateRuntime): StatefulResult {
    const answer = machine.answerOf(state);
    if (answer === undefined) return undefined;
    try {
      return { answer: answer(templateContext(ex, params, id), templates) };
    } catch (e) {
      // a template echoing a body nested deeper than a recursive walk can go
      if (!isStackOverflow(e)) throw e;
      return { answer: requestTooDeep(ex) };
    }
  }
}

const view = (id: string, record: StateRecord): ResourceView => ({ resource_id: id, state: record.state, entered_at: new Date(record.enteredAt).toISOString() });

function idSource(ex: Exchange, params: Record<string, string>): IdSource {
  return { params, headers: ex.headers, body: () => ex.json };
}

/** What a state's body_template reads: the path parameters of the pattern matched, the request (query and body read on demand), the resource id. */
function templateContext(ex: Exchange, params: Record<string, string>, id: string): TemplateContext {
  return new StateTemplateContext(ex, params, id);
}

/**
 * What a state's body_template reads: a class, so that its lazy query and body are getters of
 * one shape (an object literal with getters per request is a slow dictionary object, and garbage).
 */
class StateTemplateContext implements TemplateContext {
  readonly vars: Readonly<Record<string, string>>;

  constructor(
    private readonly ex: Exchange,
    readonly path: Record<string, string>,
    id: string,
  ) {
    this.vars = { [RESOURCE_ID]: id };
  }

  get headers(): Record<string, string> {
    return this.ex.headers;
  }

  get query(): Record<string, string | string[]> {
    return queryRecord(this.ex.query);
  }

  get body(): unknown {
    return this.ex.json;
  }
}
