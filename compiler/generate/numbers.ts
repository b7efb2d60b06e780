/** Build-time bounds arithmetic for integer and number schemas. */
import type { JsonSchema } from '../ir/types.js';
import { integerFormatRange } from './formats.js';
import { numberHint } from './hints.js';
import { finiteNumber } from './schema.js';
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
function realistic(low: number, high: number, name: string | undefined): [number, number] {
  const [wantLow, wantHigh] = numberHint(name) ?? DEFAULT_RANGE;
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
  const examples = Array.isArray(schema.examples) ? schema.examples.slice(0, 1) : [];
  const candidate = [schema.example, ...examples, schema.default].find(
    (value) => typeof value === 'number' && Number.isFinite(value) && accepts(value),
  );
  return candidate === undefined ? undefined : literal(candidate);
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
  let [from, to] = realistic(low, high, name);
  from = Math.ceil(from);
  to = Math.floor(to);
  if (step !== undefined) {
    let kFrom = Math.ceil(from / step);
    let kTo = Math.floor(to / step);
    if (kFrom > kTo) {
      // The realistic window holds no multiple: take the next few above it, within the declared bounds.
      kTo = Math.min(Math.floor(high / step), kFrom + 10);
    }
    if (Number.isInteger(step)) return kFrom === kTo ? literal(kFrom * step) : `g.int(${kFrom}, ${kTo}) * ${step}`;
    return `g.multiple(${kFrom}, ${kTo}, ${step})`;
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
  let [from, to] = realistic(b.low, b.high, name);
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
    const candidate = [schema.example, schema.default].find((value) => typeof value === 'boolean');
    if (candidate !== undefined) return literal(candidate);
  }
  return 'g.bool()';
}
