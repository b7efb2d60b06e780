import { parseDuration } from '../../../common/duration.js';
import { matchesPath, parsePathPattern, pathParams, patternsOverlap, templateSegments, type PathPattern } from '../../match/index.js';
import type { RouteRef } from '../exchange/index.js';
import type { StateMachineConfig } from './config.js';
import { compileExtractor, type Extractor } from './extractor.js';
import { compileStateAnswer, type StateAnswer } from './state-response.js';
import type { StateRecord } from './state-store.js';
import { settle, type TimedTransition } from './timed-transitions.js';

/** A transition a request makes: method and path_pattern, from_state → to_state. */
export interface RequestTransition {
  readonly method: string;
  /** As written. */
  readonly path: string;
  readonly pattern: PathPattern;
  readonly from: string;
  readonly to: string;
}

/** The transitions of one machine a request matched, and the path parameters of the first. */
export interface MatchedTransitions {
  readonly transitions: readonly RequestTransition[];
  readonly params: Record<string, string>;
}

/** A transition as the 409 and the admin API show it. */
export type TransitionView = { method: string; path_pattern: string; to_state: string } | { after: string; to_state: string };

/** One entry of core.stateful.state_machines, compiled once (patterns, extractors, templates). */
export class Machine {
  readonly name: string;
  readonly initial: string;
  /** Every state (initial_state included), in the order written, with its answer; null: none. */
  readonly states: ReadonlyMap<string, StateAnswer | null>;
  readonly extract: Extractor;
  readonly requests: readonly RequestTransition[];
  private readonly timed: ReadonlyMap<string, TimedTransition>;

  /** Throws PatternError or TemplateSyntaxError for what checkStateful reports with its key. */
  constructor(config: StateMachineConfig) {
    this.name = config.name;
    this.initial = config.initial_state;
    const states = new Map<string, StateAnswer | null>([[config.initial_state, null]]);
    for (const state of config.states) states.set(state.name, state.response === undefined ? null : compileStateAnswer(state.response));
    this.states = states;
    this.extract = compileExtractor(config.resource_id_extract);
    const requests: RequestTransition[] = [];
    const timed = new Map<string, TimedTransition>();
    for (const t of config.transitions) {
      if (t.after !== undefined) {
        // one timed transition per state (config semantics); the first one wins for embedders
        if (!timed.has(t.from_state)) timed.set(t.from_state, { to: t.to_state, after: t.after, ms: parseDuration(t.after) ?? 0 });
      } else if (t.method !== undefined && t.path_pattern !== undefined) {
        requests.push({ method: t.method.toUpperCase(), path: t.path_pattern, pattern: parsePathPattern(t.path_pattern), from: t.from_state, to: t.to_state });
      }
    }
    this.requests = requests;
    this.timed = timed;
  }

  /** Whether a request the router sends to `route` (a method and a path template) can match a transition. */
  mayReach(route: RouteRef): boolean {
    const template = templateSegments(route.path);
    // HEAD requests are routed to GET operations; custom routes of any method are `*`
    const methodFits = (method: string): boolean => route.method === '*' || method === route.method || (method === 'HEAD' && route.method === 'GET');
    return this.requests.some((t) => methodFits(t.method) && patternsOverlap(t.pattern, template));
  }

  /** Hot path: the transitions whose method and path_pattern match the request, in the order written. */
  matchRequest(method: string, segments: readonly string[]): MatchedTransitions | undefined {
    let matched: RequestTransition[] | undefined;
    for (const t of this.requests) {
      if (t.method !== method || !matchesPath(t.pattern, segments)) continue;
      (matched ??= []).push(t);
    }
    return matched === undefined ? undefined : { transitions: matched, params: pathParams(matched[0].pattern, segments) };
  }

  /** The record with the timed transitions due by `now` applied (the same record when none is). */
  settle(record: StateRecord | undefined, now: number): StateRecord | undefined {
    return record === undefined ? undefined : settle(record, now, this.timed);
  }

  /** The transitions that leave `state`, requests first, as the 409 and the admin API show them. */
  exits(state: string): TransitionView[] {
    const views: TransitionView[] = this.requests.filter((t) => t.from === state).map((t) => ({ method: t.method, path_pattern: t.path, to_state: t.to }));
    const timed = this.timed.get(state);
    if (timed !== undefined) views.push({ after: timed.after, to_state: timed.to });
    return views;
  }

  /** The state's answer; undefined when it has none (or the name is no state of the machine). */
  answerOf(state: string): StateAnswer | undefined {
    return this.states.get(state) ?? undefined;
  }
}

/** One line per transition: `PUT /api/orders/{order_id}/ship → shipped`, `after 30m → shipped`. */
export const describeExit = (view: TransitionView): string => ('after' in view ? `after ${view.after}` : `${view.method} ${view.path_pattern}`) + ` → ${view.to_state}`;
