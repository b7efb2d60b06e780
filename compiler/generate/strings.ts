/** String schemas: example, pattern, format, name hint or plain text, in that order of preference. */
import type { JsonSchema } from '../ir/types.js';
import { RandExp } from '../../common/randexp.js';
import { formatAccepts, isCheckedFormat, stringFormat } from './formats.js';
import { stringHint } from './hints.js';
import { exampleValues, linearPattern, nonNegativeInteger } from './schema.js';
import { literal } from './source.js';

export interface StringSite {
  /** Property or definition name, for realistic-value hints. */
  name: string | undefined;
  /** False where repeated identical values would break uniqueness. */
  useExample: boolean;
  /** The identifier of a module-level compiled pattern (declared once per distinct pattern). */
  pattern(source: string, max: number): string;
}

/** Unbounded repetitions (`+`, `*`) stop after this many extra characters. */
const REPEAT_CAP = 8;
/** Name-hinted values are about this long; tighter bounds get a trim/pad. */
const HINT_LENGTH = [2, 80] as const;

const codePoints = (value: string) => [...value].length;
const within = (range: readonly [number, number], min: number, max: number) => range[0] >= min && range[1] <= max;
const overlaps = (range: readonly [number, number], min: number, max: number) => range[1] >= min && range[0] <= max;

/** The pattern when the linear-time engine (which matches it), JavaScript (`u` flag) and randexp can all use it. */
function usablePattern(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string' || linearPattern(pattern) === undefined) return undefined;
  try {
    new RegExp(pattern, 'u');
    new RandExp(pattern);
    return pattern;
  } catch {
    return undefined;
  }
}

function example(schema: JsonSchema, min: number, max: number, pattern: string | undefined): string | undefined {
  return exampleValues(schema).find(
    (value): value is string =>
      typeof value === 'string' &&
      codePoints(value) >= min &&
      codePoints(value) <= max &&
      (pattern === undefined || linearPattern(pattern)?.test(value) === true) &&
      formatAccepts(schema.format, value),
  );
}

export function stringExpr(schema: JsonSchema, site: StringSite): string {
  const min = nonNegativeInteger(schema.minLength) ?? 0;
  const max = nonNegativeInteger(schema.maxLength) ?? Infinity;
  const maxText = String(max);
  const pattern = usablePattern(schema.pattern);
  const sample = site.useExample ? example(schema, min, max, pattern) : undefined;
  if (sample !== undefined) return literal(sample);

  const checked = isCheckedFormat(schema.format);
  let format = stringFormat(schema.format);
  // A checked format that cannot fit the length bounds is unsatisfiable: generate plain text.
  if (format && checked && !overlaps(format.length, min, max)) format = undefined;

  if (pattern !== undefined) {
    const cap = Math.min(Math.max(REPEAT_CAP, min), max);
    const compiled = site.pattern(pattern, Math.max(1, cap));
    return format
      ? `g.patternOr(${compiled}, ${format.call}, ${min}, ${maxText})`
      : `g.pattern(${compiled}, ${min}, ${maxText})`;
  }
  if (format) {
    return checked || within(format.length, min, max) ? format.call : `g.fit(${format.call}, ${min}, ${maxText})`;
  }
  const hint = stringHint(site.name);
  if (hint) return within(HINT_LENGTH, min, max) ? hint : `g.fit(${hint}, ${min}, ${maxText})`;
  return `g.text(${min}, ${maxText})`;
}
