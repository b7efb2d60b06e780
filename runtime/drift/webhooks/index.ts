/**
 * Contract-diff webhooks (contract_diff.webhooks, docs/contract-diff-webhooks.md): the
 * mismatches the analysis reports, debounced into `mismatch` and `high_severity` events, signed
 * per Standard Webhooks, POSTed with retries to targets checked against loopback, link-local and
 * private addresses. A folder of the runtime so that the admin API and the proxy's live check can
 * both report to it; the analysis hands over DriftObservation, a structural type.
 */
export { DriftWebhooks, checkWebhooks, type DriftWebhooksOptions, type WebhookLog, type WebhookStats, type WebhookTarget } from './drift-webhooks.js';
export { WEBHOOK_EVENTS, type DriftMismatch, type DriftObservation, type MismatchSeverity, type WebhookEventName } from './observation.js';
export { MAX_CAPTURE_IDS, type WebhookPayload } from './payload.js';
export { BASE_DELAY_MS, MAX_ATTEMPTS, MAX_DELAY_MS, retryDelay, retryable } from './retry.js';
export { checkWebhookSecret, signWebhook, webhookKey } from './signature.js';
export { displayUrl, isPrivateAddress } from './target.js';
