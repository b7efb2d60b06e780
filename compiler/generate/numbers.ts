/** Build-time bounds arithmetic for integer and number schemas. */
import type { JsonSchema } from '../ir/types.js';
import { integerFormatRange } from './formats.js';
import { numberHint } from './hints.js';
import { exampleValues, finiteNumber } from './schema.js';
import { literal } from './source.js';

/** Unbounded numbers land here: small, positive, human-looking. */
const DEFAULT_RANGE = [1, 1000] as const;
/** Declared ranges wider than this (e.g. full int64) are treated as "unbounded" for realism. */
const WIDE = 1e6;

interface Bounds {
  /** Inclusive limits the value must respect (±Infinity when absent). */
  low: number;
  high: number;
  /** Whether `low` / `high` came from an exclusive keyword (for non-integers). */
  lowOpen: boolean;
  highOpen: boolean;
}

function bounds(schema: JsonSchema): Bounds {
  let low = finiteNumber(schema.minimum) ?? -Infinity;
  let high = finiteNumber(schema.maximum) ?? Infinity;
  let lowOpen = false;
  let highOpen = false;
  const exclusiveLow = finiteNumber(schema.exclusiveMinimum);
  const exclusiveHigh = finiteNumber(schema.exclusiveMaximum);
  if (exclusiveLow !== undefined && exclusiveLow >= low) [low, lowOpen] = [exclusiveLow, true];
  if (exclusiveHigh !== undefined && exclusiveHigh <= high) [high, highOpen] = [exclusiveHigh, true];
  const format = integerFormatRange(schema.format);
  if (format) {
    if (format[0] > low) [low, lowOpen] = [format[0], false];
    if (format[1] < high) [high, highOpen] = [format[1], false];
  }
  return { low, high, lowOpen, highOpen };
}

/** A realistic sub-range of [low, high]: the declared range when it is narrow, else near 1..1000. */
function realistic(low: number, high: number, name: string | undefined, integer: boolean): [number, number] {
  const [wantLow, wantHigh] = numberHint(name, integer) ?? DEFAULT_RANGE;
  const span = wantHigh - wantLow;
  if (high - low <= WIDE) return [low, high];
  if (wantHigh >= low && wantLow <= high) return [Math.max(low, wantLow), Math.min(high, wantHigh)];
  return low > wantHigh ? [low, Math.min(high, low + span)] : [Math.max(low, high - span), high];
}

function isMultiple(value: number, step: number | undefined): boolean {
  return step === undefined || Number.isInteger(value / step);
}

function positive(value: unknown): number | undefined {
  const n = finiteNumber(value);
  return n !== undefined && n > 0 ? n : undefined;
}

/** The schema's example or default when it is a valid value, so data stays realistic. */
function exampleFor(schema: JsonSchema, accepts: (value: number) => boolean): string | undefined {
  const candidate = exampleValues(schema).find(
    (value) => typeof value === 'number' && Number.isFinite(value) && accepts(value),
  );
  return candidate === undefined ? undefined : literal(candidate);
}

/** Digits after the decimal point (`1e-7` has 7). */
function decimals(value: number): number {
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  return Math.max(0, (mantissa.split('.')[1]?.length ?? 0) - Number(exponent));
}

/**
 * The least common multiple of two positive steps, decimals included (0.02 and 0.03 -> 0.06);
 * the larger one when scaling them to integers would lose precision.
 */
export function commonMultiple(a: number, b: number): number {
  const scale = 10 ** Math.max(decimals(a), decimals(b));
  const x = Math.round(a * scale);
  const y = Math.round(b * scale);
  const gcd = (p: number, q: number): number => (q === 0 ? p : gcd(q, p % q));
  const lcm = x > 0 && y > 0 ? (x / gcd(x, y)) * y : NaN;
  return Number.isSafeInteger(x) && Number.isSafeInteger(y) && Number.isSafeInteger(lcm) ? Number((lcm / scale).toPrecision(15)) : Math.max(a, b);
}

export function integerExpr(schema: JsonSchema, name: string | undefined, useExample: boolean): string {
  const b = bounds(schema);
  const low = b.lowOpen ? Math.floor(b.low) + 1 : Math.ceil(b.low);
  const high = b.highOpen ? Math.ceil(b.high) - 1 : Math.floor(b.high);
  const step = positive(schema.multipleOf);
  const example = useExample
    ? exampleFor(schema, (v) => Number.isInteger(v) && v >= low && v <= high && isMultiple(v, step))
    : undefined;
  if (example !== undefined) return example;
  let [from, to] = realistic(low, high, name, true);
  from = Math.ceil(from);
  to = Math.floor(to);
  if (step !== undefined) {
    // Integers that are multiples of a decimal step are the multiples of its least whole multiple (0.5 -> 1, 0.3 -> 3).
    const whole = commonMultiple(step, 1);
    let kFrom = Math.ceil(from / whole);
    let kTo = Math.floor(to / whole);
    if (kFrom > kTo) {
      // The realistic window holds no multiple: take the next few above it, within the declared bounds.
      kTo = Math.min(Math.floor(high / whole), kFrom + 10);
    }
    if (whole === step) return kFrom === kTo ? literal(kFrom * step) : `g.int(${kFrom}, ${kTo}) * ${step}`;
    // 3 / 0.3 is not exactly 10 in floating point: the runtime keeps to values the validator's division accepts.
    return `g.multiple(${kFrom}, ${kTo}, ${whole}, ${step})`;
  }
  return from >= to ? literal(from) : `g.int(${from}, ${to})`;
}

export function numberExpr(schema: JsonSchema, name: string | undefined, useExample: boolean): string {
  // ajv-formats' int32/int64 accept only integers, whatever the declared type.
  if (integerFormatRange(schema.format)) return integerExpr(schema, name, useExample);
  const b = bounds(schema);
  const step = positive(schema.multipleOf);
  const inRange = (v: number) =>
    (b.lowOpen ? v > b.low : v >= b.low) && (b.highOpen ? v < b.high : v <= b.high);
  const example = useExample ? exampleFor(schema, (v) => inRange(v) && isMultiple(v, step)) : undefined;
  if (example !== undefined) return example;
  let [from, to] = realistic(b.low, b.high, name, false);
  if (step !== undefined) {
    const kFrom = Math.ceil(from / step) + (b.lowOpen && from === b.low && Number.isInteger(from / step) ? 1 : 0);
    const kTo = Math.floor(to / step) - (b.highOpen && to === b.high && Number.isInteger(to / step) ? 1 : 0);
    return kFrom >= kTo ? `g.multiple(${kFrom}, ${kFrom}, ${step})` : `g.multiple(${kFrom}, ${kTo}, ${step})`;
  }
  // Step inside exclusive bounds by a hundredth (or half the gap) so rounding cannot land on them.
  const nudge = Math.min(0.01, (to - from) / 4);
  if (b.lowOpen && from === b.low) from += nudge;
  if (b.highOpen && to === b.high) to -= nudge;
  return from >= to ? literal(from) : `g.float(${from}, ${to})`;
}

export function booleanExpr(schema: JsonSchema, useExample: boolean): string {
  if (useExample) {
    const candidate = exampleValues(schema).find((value) => typeof value === 'boolean');
    if (candidate !== undefined) return literal(candidate);
  }
  return 'g.bool()';
}
