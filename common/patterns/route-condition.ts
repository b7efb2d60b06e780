import { compileLinear } from './linear-regex.js';

/** A custom route's condition value: `/pattern/flags` matches any part of the value, anything else the whole value exactly. */
export type ValueMatcher = (value: string | undefined) => boolean;

const SLASHED = /^\/(.+)\/([a-z]*)$/;

/** Throws PatternError for a `/pattern/` that is malformed or cannot run in linear time. */
export function compileRouteCondition(expected: string): ValueMatcher {
  const slashed = SLASHED.exec(expected);
  if (slashed === null) return (value) => value === expected;
  const pattern = compileLinear(slashed[1], { flags: slashed[2] });
  return (value) => value !== undefined && pattern.test(value);
}
