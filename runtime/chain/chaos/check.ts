import { checkBound, type BoundName } from '../../../common/bounds.js';
import { isMockError } from '../../../common/errors.js';
import { compileRequestMatcher } from '../../match/index.js';
import { checkErrorPattern } from './fault-pattern.js';

type Rule = 'boolean' | 'probability' | 'percent' | 'count' | 'positive' | 'statuses' | readonly string[] | 'pattern' | 'matcher' | { bound: BoundName; integer?: true };

/** Whole milliseconds of a delay or timeout, bounded like every one (common/bounds.ts). */
const MILLISECONDS: Rule = { bound: 'delayMs', integer: true };

/** Every field of every block, and what it takes. */
const FIELDS: Record<string, Record<string, Rule>> = {
  fault_injection: {
    enabled: 'boolean',
    http_errors: 'statuses',
    http_error_probability: 'probability',
    error_pattern: 'pattern',
    connection_errors: 'boolean',
    connection_error_probability: 'probability',
    connection_error_kind: ['http_503', 'tcp_reset', 'tcp_close'],
    timeout_errors: 'boolean',
    timeout_ms: MILLISECONDS,
    timeout_probability: 'probability',
    partial_responses: 'boolean',
    partial_response_probability: 'probability',
    payload_corruption: 'boolean',
    payload_corruption_probability: 'probability',
    corruption_type: ['none', 'random_bytes', 'truncate', 'bit_flip'],
    request_matcher: 'matcher',
  },
  rate_limit: { enabled: 'boolean', requests_per_second: { bound: 'requestsPerSecond' }, burst_size: { bound: 'burstSize' }, per_ip: 'boolean', per_endpoint: 'boolean', headers: 'boolean' },
  traffic_shaping: { enabled: 'boolean', bandwidth_limit_bps: { bound: 'bandwidthBps' }, packet_loss_percent: 'percent', max_connections: 'count', connection_timeout_ms: MILLISECONDS },
  circuit_breaker: { enabled: 'boolean', failure_threshold: 'positive', success_threshold: 'positive', timeout_ms: MILLISECONDS },
  bulkhead: { enabled: 'boolean', max_concurrent_requests: 'positive', max_queue_size: 'count' },
};

const CHAOS_BLOCKS = Object.keys(FIELDS);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

function checkValue(rule: Rule, value: unknown, key: string): string[] {
  const got = `got ${JSON.stringify(value)}`;
  if (Array.isArray(rule)) return rule.includes(value as string) ? [] : [`${key}: expected one of ${rule.join(', ')}, ${got}`];
  if (typeof rule === 'object' && 'bound' in rule) {
    const problem = checkBound(rule.bound, value, rule.integer);
    return problem === undefined ? [] : [`${key}: ${problem}`];
  }
  switch (rule) {
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${key}: expected true or false, ${got}`];
    case 'probability':
      return typeof value === 'number' && value >= 0 && value <= 1 ? [] : [`${key}: expected a probability from 0.0 to 1.0, ${got}`];
    case 'percent':
      return typeof value === 'number' && value >= 0 && value <= 100 ? [] : [`${key}: expected a percentage from 0 to 100, ${got}`];
    case 'count':
      return isCount(value) ? [] : [`${key}: expected a whole number >= 0, ${got}`];
    case 'positive':
      return isCount(value) && value >= 1 ? [] : [`${key}: expected a whole number >= 1, ${got}`];
    case 'statuses':
      return Array.isArray(value) && value.every((s) => Number.isInteger(s) && s >= 100 && s <= 599)
        ? []
        : [`${key}: expected a list of HTTP status codes (100-599), ${got}`];
    case 'pattern':
      return checkErrorPattern(value, key);
    case 'matcher':
      try {
        compileRequestMatcher(value as Parameters<typeof compileRequestMatcher>[0], key);
        return [];
      } catch (e) {
        if (isMockError(e)) return [e.message];
        throw e;
      }
  }
  return [];
}

/**
 * What is wrong with a chaos patch (mock.yaml's observability.chaos, or a Chaos API body): one
 * line per problem, naming the key (`observability.chaos.rate_limit.burst_size: …`); empty when fine.
 */
export function checkChaosPatch(patch: unknown, where: string): string[] {
  if (!isObject(patch)) return [`${where}: expected an object, got ${JSON.stringify(patch)}`];
  const problems: string[] = [];
  for (const [block, value] of Object.entries(patch)) {
    // a block left out (a profile without rate_limit) changes nothing
    if (value === undefined) continue;
    const key = `${where}.${block}`;
    if (block === 'enabled') problems.push(...checkValue('boolean', value, key));
    else if (!Object.hasOwn(FIELDS, block)) problems.push(`${key}: unknown setting (expected enabled, ${CHAOS_BLOCKS.join(', ')})`);
    else problems.push(...checkBlock(block, value, key));
  }
  return problems;
}

/** One block's fields. */
function checkBlock(block: string, value: unknown, key: string): string[] {
  const fields = FIELDS[block];
  if (!isObject(value)) return [`${key}: expected an object, got ${JSON.stringify(value)}`];
  const problems: string[] = [];
  for (const [field, fieldValue] of Object.entries(value)) {
    // a body's key: `constructor` or `__proto__` must not find what every object inherits
    const rule = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (rule === undefined) problems.push(`${key}.${field}: unknown setting (expected one of ${Object.keys(fields).join(', ')})`);
    else problems.push(...checkValue(rule, fieldValue, `${key}.${field}`));
  }
  return problems;
}
