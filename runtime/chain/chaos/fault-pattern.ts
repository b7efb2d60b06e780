import { describeBound, withinBound } from '../../../common/bounds.js';
import { show } from '../../match/index.js';
import { got, isNumber, isObject, unknownKind } from './messages.js';
import { chance, type Random } from './random.js';
import { andThen, MemoryStore, smallRecordsBudget, type Awaitable, type Store } from '../../store/index.js';

/**
 * fault_injection.error_pattern: which requests get an injected HTTP error.
 *
 * - random: each with `probability`.
 * - burst: exactly `count` per window of `interval_ms`, the first `count` requests of each; the
 *   first window opens at the first request and windows follow each other without gaps.
 * - sequential: one entry per request, cycling through `sequence` (or going through it once with
 *   `repeat: false`, passing everything after); an entry of 400 or more is the status to answer,
 *   one below 400 lets that request pass. "Fail the first 3, then pass" is
 *   `{type: sequential, sequence: [503, 503, 503], repeat: false}`.
 */
export type ErrorPattern = { type: 'random'; probability: number } | { type: 'burst'; count: number; interval_ms: number } | { type: 'sequential'; sequence: number[]; repeat?: boolean };

export const ERROR_PATTERN_TYPES: readonly ErrorPattern['type'][] = ['burst', 'random', 'sequential'];

export interface FaultPattern {
  /** false: pass; true: fail with a status the caller picks (http_errors); a number: fail with it. */
  next(): Awaitable<boolean | number>;
  /** Starts over (the settings changed). */
  reset(): void;
}

/** Where a burst or sequential pattern stands, as the `fault-patterns` store holds it. */
export interface PatternRecord {
  /** burst: when the current window opened (null: before the first request); sequential: unused. */
  windowStart: number | null;
  /** burst: errors in the current window; sequential: the next entry. */
  at: number;
}

/** The `fault-patterns` store's budget: one small record (one pattern per server today), refused past it. */
export const patternBudget = smallRecordsBudget<PatternRecord>('observability.chaos.fault_injection.error_pattern');

const KEY = 'error-pattern';
const fresh = (): PatternRecord => ({ windowStart: null, at: 0 });

/**
 * Expects a pattern checkErrorPattern passed. `now` in milliseconds. Where a burst or sequential
 * pattern stands lives in the `fault-patterns` store, each request one Store.update, so instances
 * sharing the store share the pattern.
 */
export function createFaultPattern(pattern: ErrorPattern, o: { random: Random; now: () => number; store?: Store<PatternRecord> }): FaultPattern {
  const store = o.store ?? new MemoryStore('fault-patterns', patternBudget);
  const reset = (): void => void store.delete(KEY);
  switch (pattern.type) {
    case 'random':
      return { next: () => chance(o.random, pattern.probability), reset };
    case 'burst':
      return { next: stepped(store, burst(pattern.count, pattern.interval_ms, o.now)), reset };
    case 'sequential':
      return { next: stepped(store, sequential(pattern.sequence, pattern.repeat ?? true)), reset };
  }
}

/** A step of the pattern: moves the record (in place) and answers the decision. */
type Step = (record: PatternRecord) => boolean | number;

/** `step` on the stored record, as one Store.update. */
function stepped(store: Store<PatternRecord>, step: Step): () => Awaitable<boolean | number> {
  return () => {
    let decision: boolean | number = false;
    const stored = store.update(KEY, (record = fresh()) => {
      decision = step(record);
      return record;
    });
    return andThen(stored, () => decision);
  };
}

function burst(count: number, intervalMs: number, now: () => number): Step {
  return (record) => {
    // count 0 may come with interval_ms 0: nothing to fail, no window to divide by.
    if (count <= 0) return false;
    const t = now();
    if (record.windowStart === null) {
      record.windowStart = t;
    } else if (t - record.windowStart >= intervalMs) {
      record.windowStart += Math.floor((t - record.windowStart) / intervalMs) * intervalMs;
      record.at = 0;
    }
    if (record.at >= count) return false;
    record.at++;
    return true;
  };
}

function sequential(sequence: readonly number[], repeat: boolean): Step {
  return (record) => {
    if (record.at >= sequence.length) return false;
    const status = sequence[record.at]!;
    record.at = repeat ? (record.at + 1) % sequence.length : record.at + 1;
    return status >= 400 ? status : false;
  };
}

/** What is wrong with an error pattern, one line per problem naming `where`'s key; empty when fine. */
export function checkErrorPattern(p: unknown, where: string): string[] {
  if (!isObject(p)) return [`${where}: must be an object with a type (${ERROR_PATTERN_TYPES.join(', ')})`];
  const errors: string[] = [];
  switch (p.type) {
    case 'random':
      if (!(isNumber(p.probability) && p.probability >= 0 && p.probability <= 1)) errors.push(`${where}.probability: random needs a probability from 0 to 1${got(p.probability)}`);
      break;
    case 'burst':
      if (!(Number.isInteger(p.count) && (p.count as number) >= 0)) errors.push(`${where}.count: burst needs count, a whole number 0 or more${got(p.count)}`);
      if (!withinBound('delayMs', p.interval_ms)) errors.push(`${where}.interval_ms: burst needs interval_ms, a number of milliseconds ${describeBound('delayMs')}${got(p.interval_ms)}`);
      else if (p.interval_ms === 0 && (p.count as number) > 0) errors.push(`${where}.interval_ms: a burst needs interval_ms > 0 (count ${p.count} in no time at all)`);
      break;
    case 'sequential':
      if (!Array.isArray(p.sequence) || p.sequence.length === 0) {
        errors.push(`${where}.sequence: sequential needs a non-empty list of statuses (below 400: that request passes)${got(p.sequence)}`);
      } else {
        p.sequence.forEach((status: unknown, i) => {
          if (!(Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 599)) errors.push(`${where}.sequence[${i}]: ${show(status)} is not an HTTP status (100-599)`);
        });
      }
      if (p.repeat !== undefined && typeof p.repeat !== 'boolean') errors.push(`${where}.repeat: must be true or false${got(p.repeat)}`);
      break;
    default:
      errors.push(unknownKind(where, 'type', p.type, ERROR_PATTERN_TYPES));
  }
  return errors;
}
