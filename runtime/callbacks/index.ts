/**
 * Requests the mock sends (docs/callbacks-webhooks.md): OpenAPI callbacks after a route answers,
 * OpenAPI 3.1 webhooks on demand and on schedules; through one outbound sender that holds the
 * allowlist (callbacks.allowed_hosts), the delay, the retries and the request log's record.
 */
export { CallbackSender, type RouteCallback } from './callback-sender.js';
export { checkCallbacks, type CallbacksSection } from './check.js';
export { unknownDelays, type CallbackDelay } from './delays.js';
export { DEFAULT_ALLOWED_HOSTS, HostAllowlist, allowlistEntryProblem } from './host-allowlist.js';
export { Outbound, type CallbackSettings, type DeliveryResult, type OutcomeLog } from './outbound.js';
export { WebhookRequestError, WebhookSender, type ServedWebhooks, type WebhookSchedule } from './webhook-sender.js';
