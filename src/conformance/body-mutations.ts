import type { JsonSchema } from '../../compiler/index.js';
import { compileLinear, type LinearPattern } from '../../common/patterns/index.js';
import { jsonType, type SchemaView } from './schema-view.js';
import type { Check } from './validators.js';

/** Probe mutation cap: per operation, over the first 20 properties and the first 5 required ones. */
export const MUTATION_CAP = 12;
export const TOP_PROPERTIES = 20;
export const TOP_REQUIRED = 5;

export const MUTATION_KINDS = [
  'empty',
  'wrong-type',
  'type-mismatch',
  'required-removed',
  'min-length',
  'max-length',
  'pattern',
  'enum-out-of-range',
  'min',
  'max',
  'integer-as-float',
  'additional-property',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface BodyMutation {
  kind: MutationKind;
  /** The property changed, when the mutation targets one. */
  scope?: string;
  /** The mutated body value (JSON), or `text` for a raw body ('' for empty). */
  value?: unknown;
  text?: string;
  note: string;
}

export interface MutationInput {
  /** The valid body value. */
  value: unknown;
  schema: JsonSchema | undefined;
  /** The body's validator: mutations it accepts are dropped (they would not be negatives). */
  check: Check | undefined;
  /** JSON bodies get every kind; other formats only `empty`. */
  json: boolean;
  required: boolean;
}

/**
 * The `request-body:*` mutations of one valid body, at most MUTATION_CAP: one of each kind first
 * (in MUTATION_KINDS order), then further properties round-robin. A mutation is kept only when the
 * description's validator rejects the mutated body, so each is a true negative.
 */
export function bodyMutations(input: MutationInput, view: SchemaView): BodyMutation[] {
  const perKind = new Map<MutationKind, BodyMutation[]>(MUTATION_KINDS.map((k) => [k, []]));
  const add = (m: BodyMutation | undefined): void => {
    if (m === undefined) return;
    if (m.text === undefined && (input.check === undefined || input.check(m.value) === undefined)) return;
    perKind.get(m.kind)?.push(m);
  };

  if (input.required) add({ kind: 'empty', text: '', note: 'empty body with the declared Content-Type' });
  if (input.json && input.check !== undefined) {
    add(wrongType(input.value));
    const shape = view.shape(input.schema);
    const body = input.value;
    if (shape && body !== null && typeof body === 'object' && !Array.isArray(body)) {
      const object = body as Record<string, unknown>;
      const names = Object.keys(shape.properties)
        .filter((name) => !view.marked(shape.properties[name], 'readOnly'))
        .slice(0, TOP_PROPERTIES);
      const withValue = (kind: MutationKind, name: string, value: unknown, note: string): BodyMutation => ({
        kind,
        scope: name,
        value: { ...object, [name]: value },
        note: `${name}: ${note}`,
      });
      for (const name of names) {
        const schema = shape.properties[name];
        const types = view.types(schema);
        const mismatch = mismatchValue(types);
        if (mismatch !== undefined) add(withValue('type-mismatch', name, mismatch, `${JSON.stringify(mismatch)} where ${types.join('|')} is declared`));
      }
      for (const name of shape.required.slice(0, TOP_REQUIRED)) {
        if (!(name in object)) continue;
        const { [name]: _removed, ...rest } = object;
        add({ kind: 'required-removed', scope: name, value: rest, note: `required property '${name}' left out` });
      }
      for (const name of names) {
        const schema = shape.properties[name];
        const types = view.types(schema);
        const minLength = num(view.keyword(schema, 'minLength'));
        const maxLength = num(view.keyword(schema, 'maxLength'));
        const pattern = view.keyword(schema, 'pattern');
        const enumValues = view.keyword(schema, 'enum');
        if (types.includes('string') || types.length === 0) {
          if (minLength !== undefined && minLength >= 1) add(withValue('min-length', name, 'a'.repeat(minLength - 1), `${minLength - 1} character(s), minLength ${minLength}`));
          if (maxLength !== undefined && maxLength < 65_536) add(withValue('max-length', name, 'a'.repeat(maxLength + 1), `${maxLength + 1} characters, maxLength ${maxLength}`));
          if (typeof pattern === 'string') {
            const bad = notMatching(pattern);
            if (bad !== undefined) add(withValue('pattern', name, bad, `${JSON.stringify(bad)} does not match /${pattern}/`));
          }
        }
        if (Array.isArray(enumValues) && enumValues.length > 0) {
          const outside = outOfEnum(enumValues);
          add(withValue('enum-out-of-range', name, outside, `${JSON.stringify(outside)} is not one of the ${enumValues.length} allowed value(s)`));
        }
        if (types.includes('integer') || types.includes('number')) {
          const integer = types.includes('integer') && !types.includes('number');
          const minimum = num(view.keyword(schema, 'minimum'));
          const exclusiveMinimum = num(view.keyword(schema, 'exclusiveMinimum'));
          const maximum = num(view.keyword(schema, 'maximum'));
          const exclusiveMaximum = num(view.keyword(schema, 'exclusiveMaximum'));
          if (exclusiveMinimum !== undefined) add(withValue('min', name, exclusiveMinimum, `${exclusiveMinimum}, exclusiveMinimum ${exclusiveMinimum}`));
          else if (minimum !== undefined) {
            const below = integer ? Math.ceil(minimum) - 1 : minimum - 1;
            add(withValue('min', name, below, `${below}, minimum ${minimum}`));
          }
          if (exclusiveMaximum !== undefined) add(withValue('max', name, exclusiveMaximum, `${exclusiveMaximum}, exclusiveMaximum ${exclusiveMaximum}`));
          else if (maximum !== undefined) {
            const above = integer ? Math.floor(maximum) + 1 : maximum + 1;
            add(withValue('max', name, above, `${above}, maximum ${maximum}`));
          }
          if (integer) {
            const current = typeof object[name] === 'number' ? (object[name] as number) : (minimum ?? 1);
            const fractional = Math.trunc(current) + 0.5;
            add(withValue('integer-as-float', name, fractional, `${fractional} where an integer is declared`));
          }
        }
      }
      if (shape.closed) add({ kind: 'additional-property', scope: 'mock_unexpected_property', value: { ...object, mock_unexpected_property: 'unexpected' }, note: 'a property the schema does not allow (additionalProperties: false)' });
    }
  }

  const out: BodyMutation[] = [];
  for (let round = 0; out.length < MUTATION_CAP; round++) {
    let any = false;
    for (const kind of MUTATION_KINDS) {
      const m = perKind.get(kind)?.[round];
      if (m === undefined) continue;
      any = true;
      out.push(m);
      if (out.length === MUTATION_CAP) break;
    }
    if (!any) break;
  }
  return out;
}

function wrongType(value: unknown): BodyMutation | undefined {
  const candidates: unknown[] = ['mock-wrong-type', 12345, [], {}, true];
  const type = jsonType(value);
  const other = candidates.find((c) => jsonType(c) !== type && !(type === 'integer' && jsonType(c) === 'number'));
  return { kind: 'wrong-type', value: other, note: `a JSON ${jsonType(other)} where the body is ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}` };
}

/** A value of a JSON type the property does not declare. */
function mismatchValue(types: string[]): unknown {
  if (types.length === 0) return undefined;
  if (!types.includes('string')) return 'mock-type-mismatch';
  if (!types.includes('integer') && !types.includes('number')) return 12345;
  if (!types.includes('boolean')) return true;
  if (!types.includes('object')) return { mock: 'type-mismatch' };
  return undefined;
}

/** A string the pattern rejects, if one of a few simple candidates does (matched in linear time, as the server matches it). */
function notMatching(pattern: string): string | undefined {
  let regex: LinearPattern;
  try {
    regex = compileLinear(pattern);
  } catch {
    return undefined;
  }
  return ['!mock pattern mismatch!', '', ' ', '~', '0', 'a', 'ÿÿÿ', '-'.repeat(300)].find((c) => !regex.test(c));
}

function outOfEnum(values: unknown[]): unknown {
  if (values.every((v) => typeof v === 'number')) return Math.max(...(values as number[])) + 1;
  let candidate = 'mock-not-in-enum';
  while (values.includes(candidate)) candidate += '-x';
  return candidate;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
