import { describeBound, MAX_DELAY_MS, withinBound } from '../../../common/bounds.js';
import { got, isNumber, isObject, unknownKind } from './messages.js';
import type { Random } from './random.js';
import { sampleTruncatedNormal, standardNormal } from './truncated-normal.js';

/**
 * A route's latency (core.routes[].latency), plus lognormal given by its median and 99th
 * percentile, the way real tails are specified. jitter_percent (0-100) spreads the sampled base
 * uniformly by up to that share either way.
 */
export type LatencySpec =
  | { distribution: 'fixed'; mean_ms: number; jitter_percent?: number }
  /** Uniform with this mean and standard deviation; without one, uniform over [0, 2·mean]. */
  | { distribution: 'uniform'; mean_ms: number; std_dev_ms?: number; jitter_percent?: number }
  | { distribution: 'normal'; mean_ms: number; std_dev_ms: number; jitter_percent?: number }
  | { distribution: 'exponential'; mean_ms: number; jitter_percent?: number }
  | { distribution: 'lognormal'; p50_ms: number; p99_ms: number; jitter_percent?: number };

export type LatencyDistribution = LatencySpec['distribution'];

export const LATENCY_DISTRIBUTIONS: readonly LatencyDistribution[] = ['fixed', 'uniform', 'normal', 'exponential', 'lognormal'];

/** z of the standard normal's 99th percentile: lognormal's σ is ln(p99/p50) / Z99. */
const Z99 = 2.3263478740408408;

// Draws above MAX_DELAY_MS are redrawn too; with parameters within it at least a third of the
// draws are kept, so the bound itself is returned only by a stuck generator.
const UPPER_TRIES = 64;

function atMostMax(draw: () => number): number {
  for (let tries = UPPER_TRIES; tries > 0; tries--) {
    const x = draw();
    if (x <= MAX_DELAY_MS) return x;
  }
  return MAX_DELAY_MS;
}

/**
 * One delay, in fractional milliseconds (rounding is the caller's, at the header): base_ms from the
 * distribution, jitter_ms from jitter_percent; their sum is never negative. Distributions that
 * could go below 0 (uniform, normal) are truncated there by redrawing, never clamped, so no
 * probability piles up at 0; every base is truncated above MAX_DELAY_MS (one hour) the same way,
 * as lognormal and exponential tails reach any length:
 *
 * - uniform: over [mean - √3·σ, mean + √3·σ] (the interval with that standard deviation), or
 *   [0, 2·mean] without σ; the part below 0 cut off, i.e. uniform over what remains above 0.
 * - normal: N(mean, σ) given X >= 0 (truncated-normal.ts).
 * - exponential: the inverse CDF -mean·ln(1 - U).
 * - lognormal: exp(μ + σZ) with μ = ln p50 and σ = ln(p99/p50) / z(0.99), written p50·exp(σZ).
 *
 * Expects a spec checkLatencySpec passed.
 */
export function sampleLatency(spec: LatencySpec, random: Random): { base_ms: number; jitter_ms: number } {
  const base_ms = sampleBase(spec, random);
  // Clamped so the sum stays >= 0 even for an unchecked percentage.
  const share = Math.min(100, Math.max(0, spec.jitter_percent ?? 0)) / 100;
  const jitter_ms = share > 0 ? base_ms * share * (2 * random.next() - 1) : 0;
  return { base_ms, jitter_ms };
}

function sampleBase(spec: LatencySpec, random: Random): number {
  switch (spec.distribution) {
    case 'fixed':
      return spec.mean_ms;
    case 'uniform': {
      const half = spec.std_dev_ms === undefined ? spec.mean_ms : Math.sqrt(3) * spec.std_dev_ms;
      const low = Math.max(0, spec.mean_ms - half);
      return low + (Math.min(MAX_DELAY_MS, spec.mean_ms + half) - low) * random.next();
    }
    case 'normal':
      return atMostMax(() => sampleTruncatedNormal(spec.mean_ms, spec.std_dev_ms, random));
    case 'exponential':
      return atMostMax(() => -spec.mean_ms * Math.log(1 - random.next()));
    case 'lognormal': {
      const sigma = Math.log(spec.p99_ms / spec.p50_ms) / Z99;
      return atMostMax(() => spec.p50_ms * Math.exp(sigma * standardNormal(random)));
    }
  }
}

/** What is wrong with a latency spec, one line per problem naming `where`'s key; empty when fine. */
export function checkLatencySpec(spec: unknown, where: string): string[] {
  if (!isObject(spec)) return [`${where}: must be an object with a distribution (${LATENCY_DISTRIBUTIONS.join(', ')})`];
  const { distribution } = spec;
  if (!LATENCY_DISTRIBUTIONS.includes(distribution as LatencyDistribution)) return [unknownKind(where, 'distribution', distribution, LATENCY_DISTRIBUTIONS)];
  const errors: string[] = [];
  // every parameter is a delay in milliseconds, within the bound of all delays
  const need = (key: string, positive = false): void => {
    const value = spec[key];
    if (!withinBound('delayMs', value) || (positive && value === 0)) {
      errors.push(`${where}.${key}: ${distribution} needs ${key} ${positive ? `above 0 and at most ${MAX_DELAY_MS}` : describeBound('delayMs')}${got(value)}`);
    }
  };
  switch (distribution as LatencyDistribution) {
    case 'normal':
      need('mean_ms');
      need('std_dev_ms', true);
      break;
    case 'uniform':
      need('mean_ms');
      if (spec.std_dev_ms !== undefined) need('std_dev_ms');
      break;
    case 'fixed':
    case 'exponential':
      need('mean_ms');
      break;
    case 'lognormal':
      need('p50_ms', true);
      need('p99_ms', true);
      if (errors.length === 0 && (spec.p99_ms as number) < (spec.p50_ms as number)) {
        errors.push(`${where}.p99_ms: lognormal needs p99_ms >= p50_ms (got p99_ms ${spec.p99_ms}, p50_ms ${spec.p50_ms})`);
      }
      break;
  }
  const jitter = spec.jitter_percent;
  if (jitter !== undefined && !(isNumber(jitter) && jitter >= 0 && jitter <= 100)) {
    errors.push(`${where}.jitter_percent: must be a number from 0 to 100${got(jitter)}`);
  }
  return errors;
}
