/**
 * The instant the clock is pinned to when a seed is given without a pinned time (`mock data`,
 * `mock serve`), so that seeded output (date-time fields, `{{now}}`) is the same on every run.
 */
export const SEEDED_NOW = '2025-01-01T00:00:00.000Z';

const INSTANT = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Epoch milliseconds of a date or RFC 3339/ISO 8601 instant; NaN otherwise (Date.parse alone accepts too much: "1"). */
export function parseInstant(text: string): number {
  return INSTANT.test(text.trim()) ? Date.parse(text.trim()) : NaN;
}

/** The farthest instant from 1970 a Date holds (ECMAScript: 8.64e15 ms, +275760-09-13T00:00:00Z). */
export const MAX_INSTANT_MS = 8.64e15;

/** Whether `ms` is an instant a Date holds, so that toISOString and every reader of the clock work. */
export const isDateInstant = (ms: number): boolean => Number.isFinite(ms) && Math.abs(ms) <= MAX_INSTANT_MS;
