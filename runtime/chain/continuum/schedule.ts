import { parseInstant } from '../../../common/instant.js';
import type { Curve, TimeSchedule, TransitionMode } from './config.js';

/** A time_schedule read once: instants in epoch ms, defaults filled in. */
export interface Schedule {
  readonly source: TimeSchedule;
  readonly start: number;
  readonly end: number;
  readonly startRatio: number;
  readonly endRatio: number;
  readonly curve: Curve;
}

/** A checked schedule (config.ts, checkSchedule) with the spec's missing values filled in: 0 → 1, linear. */
export function readSchedule(given: Partial<TimeSchedule>): Schedule {
  const source: TimeSchedule = {
    start_time: given.start_time as string,
    end_time: given.end_time as string,
    start_ratio: given.start_ratio ?? 0,
    end_ratio: given.end_ratio ?? 1,
    curve: given.curve ?? 'linear',
  };
  return { source, start: parseInstant(source.start_time), end: parseInstant(source.end_time), startRatio: source.start_ratio, endRatio: source.end_ratio, curve: source.curve };
}

// Steepness of the exponential and sigmoid curves: slow start, then most of the move late (exponential) or mid-way (sigmoid).
const EXPONENTIAL_K = 5;
const SIGMOID_K = 10;
const logistic = (x: number): number => 1 / (1 + Math.exp(-SIGMOID_K * (x - 0.5)));

/** Share of the move from start_ratio to end_ratio done at progress p in [0, 1]; each curve runs from 0 to 1. */
export const CURVE_SHAPES: Readonly<Record<Curve, (p: number) => number>> = {
  linear: (p) => p,
  exponential: (p) => Math.expm1(EXPONENTIAL_K * p) / Math.expm1(EXPONENTIAL_K),
  sigmoid: (p) => (logistic(p) - logistic(0)) / (logistic(1) - logistic(0)),
};

/**
 * The schedule's ratio at `now` (virtual epoch ms), or undefined when it gives none and the
 * default ratio applies.
 *
 * - time_based: a ramp. start_ratio until start_time, then along the curve to end_ratio at
 *   end_time, end_ratio after.
 * - scheduled: steps fixed in advance. Nothing (the default ratio) before start_time,
 *   start_ratio from start_time, end_ratio from end_time; the curve is not used.
 * - manual: the schedule is not read.
 */
export function scheduleRatio(schedule: Schedule, mode: TransitionMode, now: number): number | undefined {
  if (mode === 'manual') return undefined;
  if (mode === 'scheduled') return now < schedule.start ? undefined : now < schedule.end ? schedule.startRatio : schedule.endRatio;
  const progress = Math.min(1, Math.max(0, (now - schedule.start) / (schedule.end - schedule.start)));
  const ratio = schedule.startRatio + (schedule.endRatio - schedule.startRatio) * CURVE_SHAPES[schedule.curve](progress);
  return Math.min(1, Math.max(0, ratio));
}
