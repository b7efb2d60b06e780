import { BlockList, isIP } from 'node:net';
import { MockError } from '../../common/errors.js';
import { PatternError, compileCondition, compileJsonPathConditions, holds, type Condition, type ConditionSpec } from '../../common/patterns/index.js';
import { jsonPathConditionsHold } from './value-conditions.js';
import { show } from './show.js';

/** observability.chaos.fault_injection.request_matcher: which requests chaos applies to. */
export interface RequestMatcherSpec {
  /** Bare IPv4/IPv6 addresses or CIDR ranges. */
  source_ips?: string[];
  /**
   * Names case-insensitive; `value` is a condition (docs/configuration.md, "Conditions"; a bare string is the
   * exact value); without one the header only has to be present.
   */
  headers?: Array<{ name: string; value?: ConditionSpec }>;
  min_body_size_bytes?: number;
  max_body_size_bytes?: number;
  chunked_only?: boolean;
  /** JSONPaths into the JSON body, each mapped to a condition on a value it selects (docs/configuration.md, "Conditions"). */
  json_path?: Record<string, ConditionSpec>;
}

export interface MatchableRequest {
  /** The client's address as the server reports it (IPv4-mapped IPv6 allowed). */
  client: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  bodyBytes: number;
  chunked: boolean;
  /** The body parsed as JSON (undefined when absent or not JSON); read only when a json_path rule asks. */
  json: unknown;
}

const CIDR_EXAMPLES = '10.0.0.0/8, ::1/128';

/**
 * A predicate for the spec: AND across fields, OR within a list, and a field left out or empty
 * matches everything (so does no spec at all, with no per-request cost). Addresses are matched by
 * node:net's BlockList, a built-in kept by Node itself rather than our own CIDR arithmetic; it
 * matches an IPv4-mapped IPv6 client (`::ffff:127.0.0.1`) against IPv4 rules and the reverse.
 * Throws MOCK_ERR_CONFIG_INVALID naming the key under `where` for a malformed address or range, a
 * negative or fractional size, min above max, or a header rule without a name.
 */
export function compileRequestMatcher(spec: RequestMatcherSpec | undefined, where: string): (req: MatchableRequest) => boolean {
  const tests: Array<(req: MatchableRequest) => boolean> = [];
  if (spec?.source_ips !== undefined && spec.source_ips.length > 0) {
    const list = addressList(spec.source_ips, `${where}.source_ips`);
    tests.push(({ client }) => {
      const family = isIP(client);
      return family !== 0 && list.check(client, family === 6 ? 'ipv6' : 'ipv4');
    });
  }
  if (spec?.headers !== undefined && spec.headers.length > 0) {
    const rules = spec.headers.map((rule, i) => headerRule(rule, `${where}.headers[${i}]`));
    tests.push(({ headers }) => rules.some(({ name, condition }) => holds(condition, headers[name])));
  }
  const min = size(spec?.min_body_size_bytes, `${where}.min_body_size_bytes`);
  const max = size(spec?.max_body_size_bytes, `${where}.max_body_size_bytes`);
  if (min !== undefined && max !== undefined && min > max) {
    throw new MockError('MOCK_ERR_CONFIG_INVALID', `${where}.min_body_size_bytes: ${min} is more than max_body_size_bytes (${max}), so nothing could match`);
  }
  if (min !== undefined) tests.push(({ bodyBytes }) => bodyBytes >= min);
  if (max !== undefined) tests.push(({ bodyBytes }) => bodyBytes <= max);
  if (spec?.chunked_only === true) tests.push(({ chunked }) => chunked);
  if (spec?.json_path !== undefined) {
    const key = `${where}.json_path`;
    let conditions;
    try {
      conditions = compileJsonPathConditions(spec.json_path, 'exact', key);
    } catch (e) {
      if (!(e instanceof PatternError)) throw e;
      throw new MockError('MOCK_ERR_CONFIG_INVALID', e.message);
    }
    if (conditions.length > 0) tests.push((req) => jsonPathConditionsHold(conditions, req.json));
  }
  if (tests.length === 0) return () => true;
  return (req) => tests.every((test) => test(req));
}

function addressList(entries: readonly string[], key: string): BlockList {
  const list = new BlockList();
  entries.forEach((entry, i) => {
    const invalid = (): never => {
      throw new MockError('MOCK_ERR_CONFIG_INVALID', `${key}[${i}]: ${show(entry)} is not an IP address or CIDR range (e.g. ${CIDR_EXAMPLES})`);
    };
    if (typeof entry !== 'string') return invalid();
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return invalid();
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else if (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32)) list.addSubnet(address, Number(prefix), type);
    else invalid();
  });
  return list;
}

const PRESENT = compileCondition({ present: true }, 'exact');

function headerRule(rule: { name: string; value?: ConditionSpec }, key: string): { name: string; condition: Condition } {
  if (typeof rule?.name !== 'string' || rule.name === '') throw new MockError('MOCK_ERR_CONFIG_INVALID', `${key}.name: a header rule needs a name`);
  if (rule.value === undefined) return { name: rule.name.toLowerCase(), condition: PRESENT };
  try {
    return { name: rule.name.toLowerCase(), condition: compileCondition(rule.value, 'exact') };
  } catch (e) {
    if (!(e instanceof PatternError)) throw e;
    throw new MockError('MOCK_ERR_CONFIG_INVALID', `${key}.value: ${e.message}; or leave it out to require only the header's presence`);
  }
}

function size(value: number | undefined, key: string): number | undefined {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
    throw new MockError('MOCK_ERR_CONFIG_INVALID', `${key}: must be a whole number of bytes, 0 or more (got ${show(value)})`);
  }
  return value;
}
