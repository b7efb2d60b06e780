import { performance } from 'node:perf_hooks';

/**
 * Wall-clock epoch milliseconds with a fraction. Workers log with it: their logs are merged by
 * time, and two requests a client sends one after the other often fall in one millisecond.
 */
export function preciseClock(): number {
  return performance.timeOrigin + performance.now();
}
