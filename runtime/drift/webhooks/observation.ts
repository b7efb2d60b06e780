/**
 * What the contract-drift analysis tells the webhooks and the explainer: the mismatches one
 * capture showed against one operation. Structural, so that the analysis hands over what it has
 * without either side importing the other.
 */
export type MismatchSeverity = 'high' | 'medium' | 'low';

export interface DriftMismatch {
  /** The stable wire id: missing_field, type_mismatch, missing_endpoint … */
  type: string;
  field: string;
  location: string;
  message: string;
  severity: MismatchSeverity;
}

export interface DriftObservation {
  capture_id: string;
  method: string;
  path: string;
  /** The description's operation id, when it has one. */
  operation?: string;
  mismatches: readonly DriftMismatch[];
}

export const WEBHOOK_EVENTS = ['mismatch', 'high_severity'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
