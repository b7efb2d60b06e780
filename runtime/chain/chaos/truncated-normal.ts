import type { Random } from './random.js';

/** N(0, 1) by Box–Muller (two draws; the sine half is dropped so that no state carries over). */
export function standardNormal(random: Random): number {
  const radius = Math.sqrt(-2 * Math.log(1 - random.next()));
  return radius * Math.cos(2 * Math.PI * random.next());
}

// Rejection gives up after this many tries; with a mean of 0 or more each try is kept with
// probability 1/2 or more, so the fallback below runs at most once in 256 samples.
const REJECTION_TRIES = 8;

/**
 * N(mean, sd) conditioned on X >= 0: the law of a latency whose draws below 0 are redrawn, never
 * clamped (clamping would pile the cut-off mass up at 0).
 *
 * With a mean of 0 or more, plain rejection: exact, and at least half of the draws are kept. A mean
 * below 0 (which config checks refuse, but the sampler stays total) could keep as few as one draw
 * in millions, and a stuck generator none; those go to inverse-CDF sampling of the truncated law,
 * which takes one draw and never loops: with α = -mean/sd and Q the standard normal upper tail,
 * Z = -Φ⁻¹(V·Q(α)) for V uniform in (0, 1] has exactly the law of Z given Z >= α. It is computed
 * in logarithms, so a tail mass too small for a double (α beyond 37) still works, and is as
 * accurate as the erfc below: about 1e-7 in probability.
 */
export function sampleTruncatedNormal(mean: number, sd: number, random: Random): number {
  if (!(sd > 0)) return Math.max(0, mean);
  for (let tries = mean >= 0 ? REJECTION_TRIES : 0; tries > 0; tries--) {
    const x = mean + sd * standardNormal(random);
    if (x >= 0) return x;
  }
  const alpha = -mean / sd;
  const logTail = Math.log(1 - random.next()) + logUpperTail(alpha);
  let z = -quantileOfLog(logTail);
  // Acklam's fit ends where doubles do (Q(α) near 1e-300, α near 37) and drifts beyond; Newton
  // steps on ln Q(z) = logTail (slope -φ(z)/Q(z)) bring z back within a few. Only α > 0 gets there.
  if (alpha > 0) {
    for (let step = 0; step < 4; step++) {
      const logQ = logUpperTail(z);
      z += (logQ - logTail) / Math.exp(LOG_SQRT_INV_2PI - (z * z) / 2 - logQ);
    }
  }
  // sd·(Z - α) rather than mean + sd·Z: never below 0 through rounding.
  return sd * Math.max(0, z - alpha);
}

const LOG_SQRT_INV_2PI = -0.5 * Math.log(2 * Math.PI);

/** ln Q(a) = ln P(Z > a), without underflow for large a. */
function logUpperTail(a: number): number {
  const x = a / Math.SQRT2;
  return x >= 0 ? Math.log(0.5) + logErfc(x) : Math.log(1 - 0.5 * Math.exp(logErfc(-x)));
}

/**
 * ln erfc(x) for x >= 0: the Chebyshev fit of Numerical Recipes (erfcc, fractional error below
 * 1.2e-7 everywhere), kept in logarithms.
 */
function logErfc(x: number): number {
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -1.26551223 +
    t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return Math.log(t) - x * x + poly;
}

// Acklam's rational approximation of the standard normal quantile (relative error below 1.15e-9).
const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239] as const;
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1] as const;
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783] as const;
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416] as const;
const P_LOW = 0.02425;
const LOG_P_LOW = Math.log(P_LOW);

/** Φ⁻¹(e^logP); the lower tail from the logarithm alone, so that e^logP may underflow. */
function quantileOfLog(logP: number): number {
  if (logP < LOG_P_LOW) return tail(Math.sqrt(-2 * logP));
  const p = Math.exp(logP);
  if (p >= 1) return Infinity;
  if (p > 1 - P_LOW) return -tail(Math.sqrt(-2 * Math.log1p(-p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q) / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
}

function tail(q: number): number {
  return (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
}
