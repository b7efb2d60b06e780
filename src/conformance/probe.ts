import type { WireRequest } from './request-model.js';

/** What a probe expects: `positive` 2xx-3xx, `negative` 4xx, `tolerant` 2xx-4xx (only 5xx fails). */
export type Expectation = 'positive' | 'negative' | 'tolerant';

export const EXPECTED_RANGE: Record<Expectation, string> = { positive: '2xx-3xx', negative: '4xx', tolerant: '2xx-4xx' };

export interface Probe {
  /** `<category>:<subcategory>[:<scope>]`, e.g. `request-body:min-length:name`. */
  label: string;
  /** The part of the label before the first colon. */
  category: string;
  /** Operation key, `METHOD /path`. */
  operation: string;
  opIndex: number;
  expect: Expectation;
  request: WireRequest;
  /** What the probe changed, in words. */
  note: string;
}

/**
 * - `pass`: status within the expected range
 * - `server_error`: any 5xx (always a finding)
 * - `valid_request_rejected`: a positive case answered outside 2xx-3xx (a finding)
 * - `missed_negative`: a negative probe accepted with a 2xx
 * - `unexpected_status`: a negative probe answered 1xx/3xx
 * - `no_response`: the connection failed or timed out
 * - `skipped`: not sent (why is recorded)
 */
export type Verdict = 'pass' | 'server_error' | 'valid_request_rejected' | 'missed_negative' | 'unexpected_status' | 'no_response' | 'skipped';

export const VERDICTS: Verdict[] = ['pass', 'server_error', 'valid_request_rejected', 'missed_negative', 'unexpected_status', 'no_response', 'skipped'];

/** The verdicts the definite-issues file lists. */
export const DEFINITE: ReadonlySet<Verdict> = new Set<Verdict>(['valid_request_rejected', 'server_error']);

export function verdictOf(expect: Expectation, status: number): Verdict {
  if (status >= 500) return 'server_error';
  if (expect === 'positive') return status >= 200 && status < 400 ? 'pass' : 'valid_request_rejected';
  if (expect === 'tolerant') return status >= 200 ? 'pass' : 'unexpected_status';
  if (status >= 400) return 'pass';
  return status >= 200 && status < 300 ? 'missed_negative' : 'unexpected_status';
}

export const categoryOf = (label: string): string => label.split(':')[0];
