import { PatternError, compileLinear } from './linear-regex.js';

/**
 * The regular-expression engine of the generated validators, for the descriptions' `pattern`
 * keywords: linear time, always. The compiler leaves out (and reports) a pattern the linear-time
 * engine cannot run (lookarounds, backreferences), so it is not enforced; a build written before
 * that rule that still holds one gets the same treatment here: it accepts every value, rather than
 * running on JavaScript's backtracking engine, where `^(?=a)(a+)+$` took seconds per request.
 * Generated code reaches it as `require("mock:schema-pattern")`.
 */
export const SCHEMA_PATTERN_MODULE = 'mock:schema-pattern';

export interface SchemaPattern {
  test(value: string): boolean;
  /** Ajv tells patterns apart by this text. */
  toString(): string;
}

export function schemaPattern(source: string, flags: string): SchemaPattern {
  const text = `/${source}/${flags}`;
  return { test: linearOrAny(source, flags), toString: () => text };
}

/** The pattern's test in linear time, or one that accepts every value when it cannot run in linear time (not enforced). */
export function linearOrAny(source: string, flags = ''): (value: string) => boolean {
  try {
    const linear = compileLinear(source, { flags });
    return (value) => linear.test(value);
  } catch (e) {
    if (!(e instanceof PatternError)) throw e;
    return () => true;
  }
}
