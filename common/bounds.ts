import { BOUNDS } from './bounds.generated.js';

/**
 * The ranges of values that end up as timers or in headers, taken from the configuration schema
 * (src/config/schema.json, definitions marked `x-bound`) so that mock.yaml, flags and variables
 * (checked by the schema) and the admin API (checked here) refuse the same values.
 *
 * Every delay and timeout becomes a timer, and Node fires a timer of more than 2^31-1 ms at once.
 * One hour keeps any sum of them (live latency, route latency, a mock's latency_ms, an override's
 * delay_ms, a held timeout) far below that.
 */
export { BOUNDS };

export type BoundName = keyof typeof BOUNDS;

export const MAX_DELAY_MS = BOUNDS.delayMs.maximum;

export interface Range {
  type: 'number' | 'integer';
  minimum?: number;
  exclusiveMinimum?: number;
  maximum: number;
}

const rangeOf = (name: BoundName): Range => BOUNDS[name];

/** An Ajv schema of the bounded value (admin bodies); `integer` for keys that take whole numbers only. */
export function boundSchema(name: BoundName, integer = false): Range {
  const range = rangeOf(name);
  return { ...range, type: integer ? 'integer' : range.type };
}

/** `from 0 to 3600000`, `above 0 and at most 3600`. */
export function describeBound(name: BoundName): string {
  const { minimum, exclusiveMinimum, maximum } = rangeOf(name);
  return minimum !== undefined ? `from ${minimum} to ${maximum}` : `above ${exclusiveMinimum} and at most ${maximum}`;
}

/** Whether `value` is a number in the range (a whole one when `integer`, or when the range says so). */
export function withinBound(name: BoundName, value: unknown, integer = false): value is number {
  const { type, minimum, exclusiveMinimum, maximum } = rangeOf(name);
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if ((integer || type === 'integer') && !Number.isInteger(value)) return false;
  if (minimum !== undefined && value < minimum) return false;
  if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) return false;
  return value <= maximum;
}

/** `expected a whole number from 0 to 3600000, got 1e+21`, or undefined when `value` is in range. */
export function checkBound(name: BoundName, value: unknown, integer = false): string | undefined {
  if (withinBound(name, value, integer)) return undefined;
  const kind = integer || rangeOf(name).type === 'integer' ? 'a whole number' : 'a number';
  return `expected ${kind} ${describeBound(name)}, got ${JSON.stringify(value) ?? String(value)}`;
}
