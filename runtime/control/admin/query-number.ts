import { AdminError } from './envelope.js';

/** A whole-number query parameter within bounds (`fallback` when absent or empty); anything else is a 400 naming it. */
export function wholeNumber(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new AdminError(400, `${name}: expected a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}
