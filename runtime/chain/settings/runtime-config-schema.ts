import { boundSchema } from '../../../common/bounds.js';

/** JSON Schemas of partial updates to the runtime configuration objects (admin API bodies). */
const statusCode = { type: 'integer', minimum: 100, maximum: 599 };

export const LATENCY_PATCH = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    base_ms: boundSchema('delayMs', true),
    jitter_ms: boundSchema('delayMs', true),
    tag_overrides: { type: 'object', additionalProperties: boundSchema('delayMs', true) },
    probability: { type: 'number', minimum: 0, maximum: 1 },
  },
};

export const FAULTS_PATCH = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    failure_rate: { type: 'number', minimum: 0, maximum: 1 },
    status_codes: { type: 'array', minItems: 1, items: statusCode },
  },
};

export const PROXY_PATCH = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    // a string is checked by checkUpstreamUrl, whose message says what is allowed (a pattern here made it "must be null")
    upstream_url: { type: ['string', 'null'] },
    timeout_seconds: boundSchema('proxyTimeoutSeconds'),
  },
};

const mode = { type: 'string', enum: ['off', 'warn', 'enforce'] };

export const VALIDATION_PATCH = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode,
    aggregate_errors: { type: 'boolean' },
    validate_responses: { type: 'boolean' },
    status_code: { type: 'integer', minimum: 400, maximum: 599 },
    error_body: { type: 'string', enum: ['documented', 'problem'] },
    skip_admin_validation: { type: 'boolean' },
    overrides: { type: 'object', additionalProperties: mode },
  },
};
