import { ANSWER_SOURCES, type AnswerSource } from '../../../common/answer-source.js';
import type { PrometheusSeries } from './prometheus-series.js';
import { StatusCounts } from './status-counts.js';

/** Status and source as one count key, `status * SOURCE_SLOTS + the source's index`: one add per request, as for the status alone. */
const SOURCE_SLOTS = 64;
const SOURCE_INDEX = Object.fromEntries(ANSWER_SOURCES.map((source, i) => [source, i])) as Record<AnswerSource, number>;

/** Each status and source of `answers` (counts keyed as above), with its count. */
export function forEachAnswer(answers: StatusCounts, visit: (status: number, source: AnswerSource, count: number) => void): void {
  answers.forEach((key, count) => visit(Math.floor(key / SOURCE_SLOTS), ANSWER_SOURCES[key % SOURCE_SLOTS]!, count));
}

/** The label and path that stand for requests no route matched. */
export const UNMATCHED = '<unmatched>';

/** The counters of one route (or of the unmatched requests of one method) since the last reset. */
export class RouteTally {
  readonly key: string;
  readonly method: string;
  readonly path: string;
  requests = 0;
  errors = 0;
  totalMs = 0;
  /** Epoch milliseconds of the last request; 0 before the first. */
  lastTime = 0;
  /** Per status and source (forEachAnswer reads them). */
  readonly answers = new StatusCounts();
  /** Set while a Prometheus exposition reads this route. */
  prometheus: PrometheusSeries | null = null;
  /** The tally of the key when this one counts one route of it (RouteRef.id): every hit counts there too. */
  readonly parent: RouteTally | null;
  /** A key's tally whose routes count apart (each with a parent): a route that found this one looks again. */
  split = false;

  constructor(key: string, method: string, path: string, parent: RouteTally | null = null) {
    this.key = key;
    this.method = method;
    this.path = path;
    this.parent = parent;
  }

  get matched(): boolean {
    return this.path !== UNMATCHED;
  }

  /** Per status, whatever the source. */
  get statuses(): StatusCounts {
    const statuses = new StatusCounts();
    forEachAnswer(this.answers, (status, _source, count) => statuses.add(status, count));
    return statuses;
  }

  hit(status: number, ms: number, now: number, source: AnswerSource): void {
    this.requests++;
    if (status >= 400) this.errors++;
    this.totalMs += ms;
    this.lastTime = now;
    this.answers.add(status * SOURCE_SLOTS + SOURCE_INDEX[source]);
    if (this.prometheus !== null) this.prometheus.observe(ms);
    if (this.parent !== null) this.parent.hit(status, ms, now, source);
  }

  /** Adds the counts of `other` (a key's tally, when its sole route gets one of its own). */
  absorb(other: RouteTally): void {
    this.requests += other.requests;
    this.errors += other.errors;
    this.totalMs += other.totalMs;
    this.lastTime = Math.max(this.lastTime, other.lastTime);
    this.answers.addAll(other.answers);
  }

  /** Zeroes the counters in place; Prometheus keeps the status counts as carried totals. */
  reset(): void {
    if (this.prometheus !== null) this.prometheus.carried.addAll(this.answers);
    this.answers.clear();
    this.requests = 0;
    this.errors = 0;
    this.totalMs = 0;
    this.lastTime = 0;
  }
}
