import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The writes one admin request makes to the workers' shared stores (mock serve --workers): the
 * fewest workers any of them reached before it answered. Kept per request (AsyncLocalStorage
 * follows the request's awaits), so two writes answered at once each say their own count.
 */
export class AppliedCount {
  fewest: number | undefined;

  note(workers: number): void {
    this.fewest = this.fewest === undefined ? workers : Math.min(this.fewest, workers);
  }
}

const scope = new AsyncLocalStorage<AppliedCount>();

/** Runs `work` counting the workers its store writes reach. */
export function countApplied<T>(count: AppliedCount, work: () => T): T {
  return scope.run(count, work);
}

/** The count of the request being served, when one counts. */
export const appliedCount = (): AppliedCount | undefined => scope.getStore();
