import { RE2JS } from 're2js';
import { backtrackingConstruct } from './js-only-syntax.js';

/**
 * User patterns (mock conditions, custom routes, override and log filters …) run on request data,
 * so they are compiled by re2js: a pure-JavaScript port of RE2 whose matching time is linear in
 * the input whatever the pattern, where V8's backtracking engine takes exponential time on
 * patterns such as `(a+)+$`. Chosen over the native `re2` binding, which needs a C++ build at
 * install, and over `re2-wasm`, unmaintained since 2021.
 */
export interface LinearPattern {
  /** The pattern as the user wrote it. */
  readonly source: string;
  test(value: string): boolean;
}

export interface PatternOptions {
  /** JavaScript flags: i, m, s; g and u are accepted and change nothing (matching is a yes/no test, always Unicode). */
  flags?: string;
  /** The whole value must match (an anchored match), rather than any part of it. */
  whole?: boolean;
}

/** What is wrong with a pattern, in words that fit after "the pattern …". */
export class PatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatternError';
  }
}

/** Compiling costs time in the pattern's length (a 5,000-character pattern takes ~70 ms). */
export const MAX_PATTERN_LENGTH = 1000;

const SYNTAX = 'RE2 syntax, https://github.com/google/re2/wiki/Syntax';
const FLAGS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, g: 0, u: 0 };
const META = /[\\^$.|?*+()[\]{}]/;

/** Throws PatternError when the pattern cannot run in linear time or is malformed. */
export function compileLinear(source: string, options: PatternOptions = {}): LinearPattern {
  const whole = options.whole === true;
  let flags = 0;
  for (const flag of options.flags ?? '') {
    const bit = FLAGS[flag];
    if (bit === undefined) throw new PatternError(`uses the flag "${flag}", which is not supported (use i, m or s)`);
    flags |= bit;
  }
  if (source.length > MAX_PATTERN_LENGTH) throw new PatternError(`is ${source.length} characters long; patterns may have at most ${MAX_PATTERN_LENGTH}`);
  const construct = backtrackingConstruct(source);
  if (construct !== undefined) throw new PatternError(`uses ${construct}, which cannot be matched in linear time and is not supported (${SYNTAX})`);
  if (flags === 0 && !META.test(source)) return whole ? { source, test: (value) => value === source } : { source, test: (value) => value.includes(source) };
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(fromJavaScript(source), flags);
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e);
    throw new PatternError(`is not a valid pattern: ${reason} (${SYNTAX})`);
  }
  return whole ? { source, test: (value) => compiled.testExact(value) } : { source, test: (value) => compiled.test(value) };
}

/** A pattern whose named groups (`(?<name>…)`) are read out of the first match, in linear time. */
export interface CapturingPattern {
  readonly source: string;
  /** The group names, in the order they appear. */
  readonly names: readonly string[];
  /** The named groups of the first match anywhere in the value (an empty string for a group that took no part), or undefined when it does not match. */
  exec(value: string): Record<string, string> | undefined;
}

/** compileLinear for patterns that capture (WebSocket scripts' waitFor); throws PatternError the same way. */
export function compileCapturing(source: string, options: Omit<PatternOptions, 'whole'> = {}): CapturingPattern {
  // the checks and messages of compileLinear, then a compiled form that can report groups
  compileLinear(source, options);
  let flags = 0;
  for (const flag of options.flags ?? '') flags |= FLAGS[flag];
  const compiled = RE2JS.compile(fromJavaScript(source), flags);
  const names = Object.entries(compiled.namedGroups())
    .sort((a, b) => a[1] - b[1])
    .map(([name]) => name);
  return {
    source,
    names,
    exec(value) {
      const matcher = compiled.matcher(value);
      if (!matcher.find()) return undefined;
      const groups: Record<string, string> = {};
      for (const name of names) groups[name] = matcher.group(name) ?? '';
      return groups;
    },
  };
}

/** JavaScript's `\uXXXX` and `\u{X…}` escapes in RE2's spelling `\x{…}`; everything else is shared syntax. */
function fromJavaScript(source: string): string {
  return source.replace(/\\\\|\\u\{([0-9A-Fa-f]+)\}|\\u([0-9A-Fa-f]{4})/g, (match: string, braced?: string, four?: string) =>
    match === '\\\\' ? match : `\\x{${braced ?? four}}`,
  );
}

/** `text` as a pattern that matches exactly it. */
export function escapeLiteral(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}
