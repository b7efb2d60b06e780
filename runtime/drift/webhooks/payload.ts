import type { DriftMismatch, WebhookEventName } from './observation.js';

/** How many capture ids an event lists: the first ones of its window. */
export const MAX_CAPTURE_IDS = 10;

/** What a webhook receives as the body (docs/contract-diff-webhooks.md), the Standard Webhooks `{type, timestamp, data}` with the id too. */
export interface WebhookPayload {
  type: WebhookEventName;
  id: string;
  timestamp: string;
  data: {
    method: string;
    path: string;
    operation?: string;
    mismatch: DriftMismatch;
    /** How many times the mismatch was seen in the window (debounced into this one event). */
    count: number;
    first_seen: string;
    last_seen: string;
    capture_ids: string[];
  };
}
