import { show } from '../../match/index.js';

// Helpers of the check* functions, whose messages name a key, the rule and what was given.

export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** ` (got …)` for a value given, nothing for one left out. */
export const got = (value: unknown): string => (value === undefined ? '' : ` (got ${show(value)})`);

/** The message for a kind-selecting key (distribution, type) missing or not one of `allowed`. */
export function unknownKind(where: string, key: string, value: unknown, allowed: readonly string[]): string {
  return value === undefined ? `${where}.${key}: missing; use one of ${allowed.join(', ')}` : `${where}.${key}: ${show(value)} is not one of ${allowed.join(', ')}`;
}
