import { createHash } from 'node:crypto';
import { isCredentialHeader } from '../../../common/credentials.js';
import { REDACTED } from '../../../common/redacted.js';
import type { Exchange, Validated } from '../exchange/index.js';

/** What the model is told of a request: never its headers, and no parameter whose name says it is a credential. */
export interface RequestShape {
  method: string;
  path: string;
  params: Record<string, Record<string, unknown>>;
  body?: unknown;
}

/** Parameters by location as validation read them, headers and cookies left out (they carry credentials more often than data). */
export function requestShape(ex: Exchange, checked: Validated): RequestShape {
  const params: Record<string, Record<string, unknown>> = {};
  for (const location of ['path', 'query']) {
    const values = checked.params[location];
    if (values === undefined || Object.keys(values).length === 0) continue;
    params[location] = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, isCredentialHeader(name) ? REDACTED : value]));
  }
  return { method: ex.method, path: ex.path, params, ...(checked.body === undefined ? {} : { body: checked.body }) };
}

/** The cache key of a request's answer: the operation, its parameters and a hash of its body. */
export function shapeKey(operation: string, shape: RequestShape): string {
  const body = shape.body === undefined ? '' : createHash('sha256').update(JSON.stringify(shape.body)).digest('base64url');
  return `${operation}\n${JSON.stringify(shape.params)}\n${body}`;
}
