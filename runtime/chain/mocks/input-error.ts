import type { ErrorObject } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import { show } from '../../match/index.js';

export { show };

/** Input from the admin API or the environment that cannot be accepted; the message is one sentence naming the field. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/**
 * One sentence for the first Ajv error (allErrors off, verbose on), naming the field by its dotted
 * path: `response.headers.x-trace must be a string (got 5)`. `subject` names the whole input.
 */
export function describeInputError(error: ErrorObject, subject: string): string {
  const field = fieldName(error.instancePath);
  const name = field || subject;
  const got = `(got ${show(error.data)})`;
  switch (error.keyword) {
    case 'required':
      return `${join(field, error.params.missingProperty as string)} is required`;
    case 'additionalProperties': {
      const unknown = error.params.additionalProperty as string;
      const known = Object.keys((error.parentSchema?.properties ?? {}) as object);
      const near = known.length > 0 ? closest(unknown, known) : undefined;
      // a suggestion only for likely typos: at most one edit per three characters
      const hint = near !== undefined && distance(unknown, near) <= Math.max(1, Math.floor(unknown.length / 3)) ? ` (did you mean ${near}?)` : '';
      return `${join(field, unknown)} is not a known field${hint}; known fields: ${known.join(', ')}`;
    }
    case 'type':
      return `${name} must be ${[error.params.type].flat().map(withArticle).join(' or ')} ${got}`;
    case 'minimum':
      return `${name} must be at least ${error.params.limit} ${got}`;
    case 'maximum':
      return `${name} must be at most ${error.params.limit} ${got}`;
    case 'minLength':
      return `${name} must not be empty`;
    default:
      return `${name} ${error.message ?? 'is invalid'} ${got}`;
  }
}

/** A value as it appears in messages: JSON, cut short. */

function fieldName(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(field: string, key: string): string {
  return field === '' ? key : `${field}.${key}`;
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
