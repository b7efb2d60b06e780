import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { newAjv } from '../../../common/ajv.js';
import { AdminError } from './envelope.js';

let ajv: Ajv | undefined;

/** Compiles a request-body schema on its first use (many servers never see an admin call), then keeps it. */
export function bodyChecker<T>(schema: object): (value: unknown, what: string) => T {
  let compiled: ValidateFunction | undefined;
  return (value, what) => {
    const validate = (compiled ??= (ajv ??= newAjv({ allErrors: false, strict: true })).compile(schema));
    if (!validate(value)) throw new AdminError(400, `${what}: ${describe(validate.errors?.[0])}`);
    return value as T;
  };
}

function describe(error: ErrorObject | undefined): string {
  if (error === undefined) return 'invalid';
  const at = error.instancePath === '' ? 'body' : error.instancePath.slice(1).replaceAll('/', '.');
  if (error.keyword === 'additionalProperties') return `${at} has unknown field "${(error.params as { additionalProperty: string }).additionalProperty}"`;
  if (error.keyword === 'required') return `${at} needs field "${(error.params as { missingProperty: string }).missingProperty}"`;
  if (error.keyword === 'enum') return `${at} must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  return `${at} ${error.message ?? 'is invalid'}`;
}
