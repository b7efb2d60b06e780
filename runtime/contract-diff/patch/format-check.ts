import { fullFormats } from 'ajv-formats/dist/formats.js';
import { linearOrAny } from '../../../common/patterns/index.js';

type Check = RegExp | ((value: never) => boolean);
type FormatDefinition = Check | { type?: 'string' | 'number'; validate: Check };

/**
 * Whether a value has a format as the generated validators check it (ajv-formats' full mode: string
 * formats on strings, int32, int64, float and double on numbers); an unknown format holds.
 */
export function hasFormat(value: string | number, format: string): boolean {
  const definition = (fullFormats as Record<string, FormatDefinition | boolean | undefined>)[format];
  if (definition === undefined || typeof definition === 'boolean') return true;
  const described = typeof definition === 'object' && !(definition instanceof RegExp);
  if ((described && definition.type === 'number' ? 'number' : 'string') !== typeof value) return true;
  const check = described ? definition.validate : definition;
  return check instanceof RegExp ? check.test(String(value)) : (check as (value: string | number) => boolean)(value);
}

/** Whether a string matches a `pattern` as the generated validators run it (linear time; one they cannot run holds). */
export const matchesPattern = (value: string, pattern: string): boolean => linearOrAny(pattern, 'u')(value);
