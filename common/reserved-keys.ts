import { PROBLEMS } from './errors.js';

/**
 * Names that reach shared objects through an ordinary one: `__proto__` sets its prototype,
 * `constructor` and `prototype` lead to Object and the prototypes every object shares. A name a
 * request chose (a query key, a form field, a header) never becomes one of these keys.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A name from a request refused as a key; the message is the catalogue's MOCK_ERR_FORBIDDEN_KEY, naming where it came from. */
export class ReservedKeyError extends Error {
  override name = 'ReservedKeyError';

  constructor(
    readonly key: string,
    where: string,
  ) {
    super(PROBLEMS.MOCK_ERR_FORBIDDEN_KEY.detail({ key, where }));
  }
}

/** `key`, unless it is reserved: then throws ReservedKeyError naming `where`. */
export function ownKey(key: string, where: string): string {
  if (RESERVED_KEYS.has(key)) throw new ReservedKeyError(key, where);
  return key;
}
