import type { Faker } from '@faker-js/faker';
import { createFaker } from './faker.js';

/** `{{faker.<shorthand>}}` tokens and the Faker method each stands for. */
const SHORTHANDS: Record<string, [module: string, method: string]> = {
  name: ['person', 'fullName'],
  email: ['internet', 'email'],
  address: ['location', 'streetAddress'],
  phone: ['phone', 'number'],
  company: ['company', 'name'],
};

let probe: Faker | undefined;

/**
 * Resolves what follows `faker.` to a Faker method, or explains why it cannot be used.
 * The method is called once here so that ones needing arguments (`helpers.arrayElement`)
 * fail the build instead of every request.
 */
export function resolveFakerMethod(name: string): { module: string; method: string } | string {
  const parts = Object.hasOwn(SHORTHANDS, name) ? SHORTHANDS[name] : name.split('.');
  if (parts.length !== 2) return `unknown faker token 'faker.${name}'`;
  const [module, method] = parts;
  probe ??= createFaker(0);
  // Own properties only, so `faker.person.constructor` and the like are not methods.
  const target = ownProperty(probe, module);
  const fn = ownProperty(target, method);
  if (typeof fn !== 'function') return `unknown faker method 'faker.${module}.${method}'`;
  try {
    fn.call(target);
  } catch {
    return `faker method 'faker.${module}.${method}' cannot be called without arguments`;
  }
  return { module, method };
}

function ownProperty(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
