import { PatternError, compileLinear } from './linear-regex.js';

/**
 * The regular-expression engine of the generated validators, for the descriptions' `pattern`
 * keywords: linear time wherever RE2 can express the pattern, JavaScript's own RegExp for the
 * constructs it cannot (lookarounds, backreferences), which the compiler reports at build time.
 * Generated code reaches it as `require("mock:schema-pattern")`.
 */
export const SCHEMA_PATTERN_MODULE = 'mock:schema-pattern';

export interface SchemaPattern {
  test(value: string): boolean;
  /** Ajv tells patterns apart by this text. */
  toString(): string;
  /** True when it runs on JavaScript's backtracking engine. */
  readonly backtracking: boolean;
}

export function schemaPattern(source: string, flags: string): SchemaPattern {
  const text = `/${source}/${flags}`;
  try {
    const linear = compileLinear(source, { flags });
    return { test: (value) => linear.test(value), toString: () => text, backtracking: false };
  } catch (e) {
    if (!(e instanceof PatternError)) throw e;
    const native = new RegExp(source, flags);
    return { test: (value) => native.test(value), toString: () => text, backtracking: true };
  }
}
