import { dateKind, MONEY_WORDS, textKind, wordsOf } from '../../../common/field-kinds.js';
import type { Fakes, Gen } from './fakes.js';

export { dateKind, wordsOf, type DateShape } from '../../../common/field-kinds.js';

/**
 * Which fake value a leaf field gets, decided once per field from its name, its type and its
 * parent type's name: strings by the rules the OpenAPI generator shares (common/field-kinds.ts:
 * `User.email` an address, `Film.director` a person's name, `Film.title` a book title,
 * `description` English sentences, `createdAt` a past instant), numbers by name here (`price:
 * Float` money, `age` 18 to 90).
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

/** An Int field. */
export function intGen(fakes: Fakes, field: LeafField): Gen {
  const words = wordsOf(field.name);
  const last = words.at(-1) ?? '';
  const date = dateKind(words, 'epochSeconds');
  if (date !== undefined) return fakes.gen(date);
  const range = (min: number, max: number): Gen => fakes.number({ min, max });
  switch (last) {
    case 'age':
      return range(18, 90);
    case 'year':
      return range(1990, 2030);
    case 'month':
      return range(1, 12);
    case 'day':
      return range(1, 28);
    case 'hour':
    case 'hours':
      return range(0, 23);
    case 'minute':
    case 'minutes':
    case 'second':
    case 'seconds':
      return range(0, 59);
    case 'rating':
    case 'stars':
      return range(1, 5);
    case 'score':
    case 'percent':
    case 'percentage':
    case 'progress':
      return range(0, 100);
    case 'port':
      return range(1024, 65535);
    case 'width':
    case 'height':
      return range(100, 2000);
    case 'ms':
    case 'millis':
    case 'milliseconds':
      return range(1, 60000);
    case 'duration':
      return range(1, 3600);
    case 'priority':
    case 'rank':
    case 'order':
    case 'position':
    case 'index':
    case 'level':
    case 'sort':
      return range(0, 10);
    case 'zip':
    case 'zipcode':
      return range(10000, 99999);
    case 'cents':
      return range(100, 100000);
    default:
      break;
  }
  if (MONEY_WORDS.has(last)) return range(1, 1000);
  if (last === 'count' || last === 'total' || last === 'quantity' || last === 'qty' || last === 'number' || last === 'num' || last === 'size') return range(0, 100);
  return range(1, 1000);
}

/** A Float field. */
export function floatGen(fakes: Fakes, field: LeafField): Gen {
  const words = wordsOf(field.name);
  const last = words.at(-1) ?? '';
  const date = dateKind(words, 'epochMillis');
  if (date !== undefined) return fakes.gen(date);
  const range = (min: number, max: number, decimals: number): Gen => fakes.number({ min, max, decimals });
  if (MONEY_WORDS.has(last)) return range(1, 1000, 2);
  if (last === 'latitude' || last === 'lat') return range(-90, 90, 6);
  if (last === 'longitude' || last === 'lng' || last === 'lon') return range(-180, 180, 6);
  if (last === 'rating' || last === 'stars') return range(1, 5, 1);
  if (last === 'score' || last === 'percent' || last === 'percentage' || last === 'progress') return range(0, 100, 1);
  if (last === 'ratio' || last === 'rate' || last === 'probability' || last === 'share' || last === 'fraction' || last === 'confidence') return range(0, 1, 4);
  if (last === 'temperature' || last === 'temp') return range(-20, 40, 1);
  if (/^(priority|rank|level|order|position|index|sort)$/.test(last)) return range(0, 10, 1);
  if (/^(estimate|points|effort)$/.test(last)) return range(0, 20, 1);
  if (/^(weight|height|width|length|distance|size|depth|area|volume|radius)$/.test(last)) return range(0.1, 100, 2);
  return range(0, 1000, 2);
}

export function booleanGen(fakes: Fakes, field: LeafField): Gen {
  const joined = wordsOf(field.name).join('');
  if (/^(success|successful|succeeded|ok|valid)$/.test(joined)) return fakes.gen('true');
  return fakes.gen('boolean');
}
