import type { Mismatch } from './mismatch.js';

/** One analysed capture that drifts from the description. */
export interface DriftReport {
  capture_id: string;
  method: string;
  path: string;
  /** The operation it routed to (`GET /pets/{petId}`), when any. */
  operation?: string;
  mismatches: readonly Mismatch[];
}

/**
 * Told of every capture an analysis finds drifting (the proxy's live check, the admin API's
 * analyses): contract_diff.webhooks listen. Must not throw; the analysis never waits on it.
 */
export type DriftListener = (report: DriftReport) => void;
