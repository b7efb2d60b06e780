import type { StateRecord } from './state-store.js';

/** A transition that fires `after` (as written; `ms` read) once a resource has been that long in its state. */
export interface TimedTransition {
  readonly to: string;
  readonly after: string;
  readonly ms: number;
}

/**
 * Timed transitions, applied lazily rather than with a timer per resource: whoever reads a
 * resource (a request, the admin API) moves it along every transition due by `now`, each state
 * entered at the instant its timer ran out, so several elapsed durations chain. A cycle of timed
 * transitions (a traffic light) skips the whole rounds that fit, so a long jump of the virtual
 * clock costs at most one round. Answers `record` itself when nothing was due.
 */
export function settle(record: StateRecord, now: number, timed: ReadonlyMap<string, TimedTransition>): StateRecord {
  let { state, enteredAt } = record;
  // state → when the walk entered it, to notice a cycle
  const seen = new Map<string, number>();
  for (let next = timed.get(state); next !== undefined && enteredAt + next.ms <= now; next = timed.get(state)) {
    const before = seen.get(state);
    if (before !== undefined) {
      const round = enteredAt - before;
      // a cycle of zero-length timers has no state to settle in: stay
      if (round <= 0) break;
      enteredAt += Math.floor((now - enteredAt) / round) * round;
      seen.clear();
      if (enteredAt + next.ms > now) break;
    }
    seen.set(state, enteredAt);
    enteredAt += next.ms;
    state = next.to;
  }
  return state === record.state && enteredAt === record.enteredAt ? record : { state, enteredAt };
}
