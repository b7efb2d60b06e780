import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { AdminError } from './envelope.js';

const ajv = new Ajv({ allErrors: false, strict: true });

/** Compiles a request-body schema once, at module load (admin calls are not the hot path). */
export function bodyChecker<T>(schema: object): (value: unknown, what: string) => T {
  const validate: ValidateFunction = ajv.compile(schema);
  return (value, what) => {
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
