import type { JsonSchema } from '../ir/types.js';
import type { Site } from './emit-context.js';
import type { GeneratedCode } from './generated-code.js';
import type { SchemaResolver } from './resolve.js';
import { explicitTypes, isUnion, typeMatches } from './schema.js';
import { literal } from './source.js';
import { unionConstants } from './unions.js';

/** The finite set of values a schema allows, when it is one (const, enum or a union of those). */
export function choices(view: JsonSchema, resolver: SchemaResolver): unknown[] | undefined {
  if ('const' in view) return [view.const];
  return enumChoices(view) ?? (isUnion(view) ? unionConstants(view, resolver) : undefined);
}

/** The enum values worth generating: those of a declared type, non-null ones first. */
export function enumChoices(s: JsonSchema): unknown[] | undefined {
  if (!Array.isArray(s.enum) || s.enum.length === 0) return undefined;
  const types = explicitTypes(s);
  const typed = s.enum.filter((value) => typeMatches(value, types));
  const pool = typed.length > 0 ? typed : s.enum;
  const nonNull = pool.filter((value) => value !== null);
  return nonNull.length > 0 ? nonNull : pool;
}

/** One of `choices`, picked at run time from a module-level constant (objects cloned). */
export function enumValue(code: GeneratedCode, choices: unknown[], site: Site): string {
  if (choices.length === 1) return literal(choices[0]);
  const values = code.constant(JSON.stringify(['values', choices]), 'values', site.hint, literal(choices));
  const scalar = choices.every((value) => value === null || typeof value !== 'object');
  return scalar ? `g.pick(${values})` : `g.clone(g.pick(${values}))`;
}
