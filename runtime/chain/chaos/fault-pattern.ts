import { describeBound, withinBound } from '../../../common/bounds.js';
import { show } from '../../match/index.js';
import { got, isNumber, isObject, unknownKind } from './messages.js';
import { chance, type Random } from './random.js';

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
  next(): boolean | number;
}

/** Expects a pattern checkErrorPattern passed. `now` in milliseconds. */
export function createFaultPattern(pattern: ErrorPattern, o: { random: Random; now: () => number }): FaultPattern {
  switch (pattern.type) {
    case 'random':
      return { next: () => chance(o.random, pattern.probability) };
    case 'burst':
      return burst(pattern.count, pattern.interval_ms, o.now);
    case 'sequential':
      return sequential(pattern.sequence, pattern.repeat ?? true);
  }
}

function burst(count: number, intervalMs: number, now: () => number): FaultPattern {
  let windowStart: number | undefined;
  let failed = 0;
  return {
    next() {
      // count 0 may come with interval_ms 0: nothing to fail, no window to divide by.
      if (count <= 0) return false;
      const t = now();
      if (windowStart === undefined) {
        windowStart = t;
      } else if (t - windowStart >= intervalMs) {
        windowStart += Math.floor((t - windowStart) / intervalMs) * intervalMs;
        failed = 0;
      }
      if (failed >= count) return false;
      failed++;
      return true;
    },
  };
}

function sequential(sequence: readonly number[], repeat: boolean): FaultPattern {
  let index = 0;
  return {
    next() {
      if (index >= sequence.length) return false;
      const status = sequence[index]!;
      index = repeat ? (index + 1) % sequence.length : index + 1;
      return status >= 400 ? status : false;
    },
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
