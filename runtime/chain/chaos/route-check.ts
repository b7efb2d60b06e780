import type { RouteLatencyMeta } from '../../../common/contract/index.js';
import { checkBound } from '../../../common/bounds.js';
import { show } from '../../match/index.js';
import { checkLatencySpec } from './distributions.js';
import { got, isNumber, isObject, unknownKind } from './messages.js';
import { latencySpec } from './route-latency.js';

const LATENCY_KEYS = ['enabled', 'probability', 'distribution', 'mean_ms', 'std_dev_ms', 'p50_ms', 'p99_ms', 'jitter_percent'];
const FAULT_KEYS = ['enabled', 'probability', 'fault_types'];
const FAULT_TYPES = ['http_error', 'timeout', 'connection_error'];
const FAULT_TYPE_KEYS: Record<string, string[]> = { http_error: ['type', 'status_code', 'message'], timeout: ['type', 'duration_ms'], connection_error: ['type', 'message'] };

const unknownKeys = (value: Record<string, unknown>, known: string[], where: string): string[] =>
  Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => `${where}.${key}: unknown setting (expected one of ${known.join(', ')})`);

function checkSwitch(block: Record<string, unknown>, where: string): string[] {
  const problems = typeof block.enabled === 'boolean' ? [] : [`${where}.enabled: expected true or false${got(block.enabled)}`];
  const p = block.probability;
  if (p !== undefined && !(isNumber(p) && p >= 0 && p <= 1)) problems.push(`${where}.probability: expected a probability from 0.0 to 1.0${got(p)}`);
  return problems;
}

function checkLatency(latency: unknown, where: string): string[] {
  if (!isObject(latency)) return [`${where}: expected {enabled, probability, distribution, mean_ms, std_dev_ms, p50_ms, p99_ms, jitter_percent}${got(latency)}`];
  const problems = [...unknownKeys(latency, LATENCY_KEYS, where), ...checkSwitch(latency, where)];
  // every delay given is bounded, even one its distribution does not read
  for (const key of ['mean_ms', 'std_dev_ms', 'p50_ms', 'p99_ms']) {
    const problem = latency[key] === undefined ? undefined : checkBound('delayMs', latency[key]);
    if (problem !== undefined) problems.push(`${where}.${key}: ${problem}`);
  }
  return problems.length > 0 ? problems : checkLatencySpec(latencySpec(latency as unknown as RouteLatencyMeta), where);
}

function checkFaultType(fault: unknown, where: string): string[] {
  if (!isObject(fault)) return [`${where}: expected {type, …}${got(fault)}`];
  if (!FAULT_TYPES.includes(fault.type as string)) return [unknownKind(where, 'type', fault.type, FAULT_TYPES)];
  const problems = unknownKeys(fault, FAULT_TYPE_KEYS[fault.type as string]!, where);
  const status = fault.status_code;
  if (status !== undefined && !(Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 599)) problems.push(`${where}.status_code: ${show(status)} is not an HTTP status (100-599)`);
  if (fault.message !== undefined && typeof fault.message !== 'string') problems.push(`${where}.message: expected a string${got(fault.message)}`);
  const duration = fault.duration_ms === undefined ? undefined : checkBound('delayMs', fault.duration_ms, true);
  if (duration !== undefined) problems.push(`${where}.duration_ms: ${duration}`);
  return problems;
}

function checkFaults(faults: unknown, where: string): string[] {
  if (!isObject(faults)) return [`${where}: expected {enabled, probability, fault_types}${got(faults)}`];
  const problems = [...unknownKeys(faults, FAULT_KEYS, where), ...checkSwitch(faults, where)];
  const types = faults.fault_types;
  if (types === undefined) return problems;
  if (!Array.isArray(types)) return [...problems, `${where}.fault_types: expected a list${got(types)}`];
  return [...problems, ...types.flatMap((fault, i) => checkFaultType(fault, `${where}.fault_types[${i}]`))];
}

/**
 * What is wrong with a route's chaos ({latency?, fault_injection?}: core.routes[] in mock.yaml, or
 * a /__mock/api/route-chaos body), one line per problem naming the key below `where` (which may be
 * empty); empty when fine.
 */
export function checkRouteChaos(chaos: { latency?: unknown; fault_injection?: unknown }, where: string): string[] {
  const at = (key: string): string => (where === '' ? key : `${where}.${key}`);
  return [
    ...(chaos.latency === undefined ? [] : checkLatency(chaos.latency, at('latency'))),
    ...(chaos.fault_injection === undefined ? [] : checkFaults(chaos.fault_injection, at('fault_injection'))),
  ];
}
