import { dateKind, numberRange, textKind, wordsOf } from '../../../common/field-kinds.js';
import type { Fakes, Gen } from './fakes.js';

export { dateKind, wordsOf, type DateShape } from '../../../common/field-kinds.js';

/**
 * Which fake value a leaf field gets, decided once per field from its name, its type and its
 * parent type's name: strings by the rules the OpenAPI generator shares (common/field-kinds.ts:
 * `User.email` an address, `Film.director` a person's name, `Film.title` a book title,
 * `description` English sentences, `createdAt` a past instant) and numbers (`price: Float`
 * money, `age` 18 to 90).
 */

export interface LeafField {
  /** The field's name as written. */
  name: string;
  /** The object type it belongs to. */
  parent: string;
}

const STATUS = ['active', 'pending', 'inactive', 'archived'];

/** A String field (or a custom scalar the mock has no better idea for): by the shared field-name rules (common/field-kinds.ts). */
export function stringGen(fakes: Fakes, field: LeafField): Gen {
  const kind = textKind(field.name, field.parent);
  switch (kind) {
    case undefined:
      return fakes.gen('words');
    case 'identifier':
      return fakes.gen('uuid');
    case 'money':
      return fakes.number({ min: 1, max: 1000, decimals: 2, asString: true });
    case 'latitude':
      return fakes.number({ min: -90, max: 90, decimals: 6, asString: true });
    case 'longitude':
      return fakes.number({ min: -180, max: 180, decimals: 6, asString: true });
    case 'status':
      return fakes.pick(STATUS);
    default:
      return fakes.gen(kind);
  }
}

/** An Int field: a date by name (epoch seconds), else by the shared ranges (common/field-kinds.ts), else 1 to 1000. */
export function intGen(fakes: Fakes, field: LeafField): Gen {
  const date = dateKind(wordsOf(field.name), 'epochSeconds');
  if (date !== undefined) return fakes.gen(date);
  return fakes.number(numberRange(field.name, true) ?? { min: 1, max: 1000 });
}

/** A Float field: a date by name (epoch milliseconds), else by the shared ranges, else 0 to 1000. */
export function floatGen(fakes: Fakes, field: LeafField): Gen {
  const date = dateKind(wordsOf(field.name), 'epochMillis');
  if (date !== undefined) return fakes.gen(date);
  return fakes.number(numberRange(field.name, false) ?? { min: 0, max: 1000, decimals: 2 });
}

export function booleanGen(fakes: Fakes, field: LeafField): Gen {
  const joined = wordsOf(field.name).join('');
  if (/^(success|successful|succeeded|ok|valid)$/.test(joined)) return fakes.gen('true');
  return fakes.gen('boolean');
}
