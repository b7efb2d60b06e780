import { randomBytes } from 'node:crypto';
import { andThen, type Awaitable, type Store, type StoreBudget } from '../store/index.js';
import type { Capture } from './capture.js';
import type { AnalysisReport } from './aggregate.js';
import type { MismatchType, Severity } from './mismatch.js';

/** A capture as the `contract-diff-captures` store holds it. */
export interface StoredCapture {
  id: string;
  /** ISO 8601: when it was uploaded or captured. */
  received_at: string;
  /** upload, or proxy for traffic captured on its way to an upstream. */
  source: 'upload' | 'proxy';
  capture: Capture;
}

const MAX_MB = 32;

/** 32 MiB of captures; past it the least recently used are forgotten (GET /__mock/contract-diff/statistics shows how many). */
export const capturesBudget: StoreBudget<StoredCapture> = {
  maxBytes: MAX_MB * 1024 * 1024,
  past: 'evict',
  setting: `the contract-diff captures (${MAX_MB} MB)`,
  forgotten: 'the contract-diff captures',
  afterwards: ', which analyses no longer see',
  sizeOf: (key, value) => 2 * (key.length + JSON.stringify(value).length) + 64,
};

/** What this process analysed since it started (statistics, like the request log's: per process). */
interface Counters {
  uploads: number;
  analyses: number;
  captures_analyzed: number;
  mismatches: number;
  by_type: Partial<Record<MismatchType, number>>;
  by_severity: Record<Severity, number>;
  last_analyzed_at: string | null;
}

/**
 * The captures of the contract-diff admin API, in the `contract-diff-captures` store: ids that
 * sort by arrival, listed newest first.
 */
export class CaptureLog {
  private readonly counters: Counters = { uploads: 0, analyses: 0, captures_analyzed: 0, mismatches: 0, by_type: {}, by_severity: { high: 0, medium: 0, low: 0 }, last_analyzed_at: null };
  private sequence = 0;

  constructor(private readonly store: Store<StoredCapture>) {}

  /** Ids sort by arrival across processes that share the store: the time, this process's count, a random tail. */
  private nextId(now: number): string {
    this.sequence = (this.sequence + 1) % 36 ** 4;
    return `${now.toString(36).padStart(9, '0')}${this.sequence.toString(36).padStart(4, '0')}${randomBytes(3).toString('hex')}`;
  }

  add(capture: Capture, source: StoredCapture['source'], now: number): Awaitable<StoredCapture> {
    // the store names it: an id the source gave is not kept
    const kept = { ...capture };
    delete kept.id;
    const stored: StoredCapture = { id: this.nextId(now), received_at: new Date(now).toISOString(), source, capture: kept };
    if (source === 'upload') this.counters.uploads++;
    return andThen(this.store.set(stored.id, stored), () => stored);
  }

  get(id: string): Awaitable<StoredCapture | undefined> {
    return this.store.get(id);
  }

  /** Newest first. */
  page(limit: number, offset: number): Awaitable<{ captures: StoredCapture[]; total: number }> {
    return andThen(this.store.entries(), (entries) => {
      const newest = entries.map(([, value]) => value).sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
      return { captures: newest.slice(offset, offset + limit), total: newest.length };
    });
  }

  /** An analysis run over the API, counted. */
  counted(report: AnalysisReport, now: number): void {
    const c = this.counters;
    c.analyses++;
    c.captures_analyzed += report.captures;
    c.mismatches += report.mismatches;
    for (const [type, n] of Object.entries(report.by_type) as [MismatchType, number][]) c.by_type[type] = (c.by_type[type] ?? 0) + n;
    for (const severity of ['high', 'medium', 'low'] as const) c.by_severity[severity] += report.by_severity[severity];
    c.last_analyzed_at = new Date(now).toISOString();
  }

  statistics(): Record<string, unknown> {
    const usage = this.store.usage();
    return {
      captures: usage.entries,
      bytes: usage.bytes,
      max_bytes: usage.max_bytes,
      evicted: usage.evicted,
      ...this.counters,
      by_type: { ...this.counters.by_type },
      by_severity: { ...this.counters.by_severity },
    };
  }
}
