import type { ValidateFunction } from 'ajv';
import { newAjv } from '../../../common/ajv.js';
import { boundSchema } from '../../../common/bounds.js';
import { firstControl } from '../../../common/terminal-text.js';
import type { ConditionSpec } from '../../match/index.js';
import { describeInputError, InputError, show } from './input-error.js';

/** A mock as the admin API reads and writes it (see index.ts for the field rules). */
export interface MockRecord {
  id: string;
  name: string;
  method: string;
  path: string;
  response: { body?: unknown; headers?: Record<string, string> };
  enabled: boolean;
  status_code: number;
  priority: number;
  latency_ms?: number;
  /** Conditions (docs/configuration.md, "Conditions"); a bare string is a pattern the whole value must match. */
  match_headers?: Record<string, ConditionSpec>;
  match_query?: Record<string, ConditionSpec>;
  /** JSONPaths into the JSON body, each with its condition. */
  match_json_path?: Record<string, ConditionSpec>;
}

export const MOCK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'ANY'] as const;

const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
// each value is checked by the condition dialect when the mock is compiled, with a message naming it
const conditionMap = { type: 'object' };

const schema = {
  type: 'object',
  required: ['method', 'path', 'response'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1 },
    name: { type: 'string', minLength: 1 },
    method: { type: 'string' },
    path: { type: 'string' },
    response: {
      type: 'object',
      additionalProperties: false,
      properties: { body: {}, headers: stringMap },
    },
    enabled: { type: 'boolean' },
    status_code: { type: 'integer', minimum: 100, maximum: 599 },
    priority: { type: 'integer' },
    latency_ms: boundSchema('delayMs', true),
    match_headers: conditionMap,
    match_query: conditionMap,
    match_json_path: conditionMap,
  },
};

// Compiled on first use (most servers never get a runtime mock), then kept.
let compiled: ValidateFunction<Partial<MockRecord>> | undefined;
const validator = (): ValidateFunction<Partial<MockRecord>> => (compiled ??= newAjv({ allErrors: false, verbose: true }).compile<Partial<MockRecord>>(schema));

// Ids travel in admin URLs (`/__mock/api/mocks/{id}`), so they keep to unreserved URL characters.
const ID = /^[A-Za-z0-9._~-]+$/;

/**
 * Checks the shape of create/replace input and fills the defaults; the result is a fresh copy the
 * caller cannot change afterwards. `id` is the id to use when the input names none.
 * Throws InputError with one sentence naming the field.
 */
export function readMockRecord(input: unknown, id: string): MockRecord {
  const validate = validator();
  if (!validate(input)) throw new InputError(describeInputError(validate.errors![0], 'the mock'));
  const given = structuredClone(input) as Partial<MockRecord> & Pick<MockRecord, 'method' | 'path' | 'response'>;
  const method = given.method.toUpperCase();
  if (!(MOCK_METHODS as readonly string[]).includes(method)) {
    throw new InputError(`method must be one of ${MOCK_METHODS.join(', ')} (got ${show(given.method)})`);
  }
  const record: MockRecord = {
    id: given.id ?? id,
    name: given.name ?? `${method} ${given.path}`,
    method,
    path: given.path,
    response: given.response,
    enabled: given.enabled ?? true,
    status_code: given.status_code ?? 200,
    priority: given.priority ?? 0,
  };
  for (const field of ['path', 'name'] as const) {
    const control = firstControl(record[field]);
    // the request log, the console and mock tui show both: a control character would act on their terminals
    if (control !== undefined) throw new InputError(`${field} holds the control character ${control}; paths and names of mocks may not hold control characters (got ${show(record[field])})`);
  }
  if (!ID.test(record.id)) throw new InputError(`id may only hold letters, digits, ".", "_", "~" and "-" (got ${show(record.id)})`);
  if (given.latency_ms !== undefined) record.latency_ms = given.latency_ms;
  if (given.match_headers !== undefined) record.match_headers = given.match_headers;
  if (given.match_query !== undefined) record.match_query = given.match_query;
  if (given.match_json_path !== undefined) record.match_json_path = given.match_json_path;
  return record;
}
