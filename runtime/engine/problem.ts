import { PROBLEMS, type ProblemCode, type ProblemParams } from '../../common/errors.js';
import type { MockResponse } from './request.js';

export const PROBLEM_TYPE = 'application/problem+json';

export interface ProblemOptions {
  /** Where the catalogue's status is a default: validation.status_code, an injected fault's. */
  status?: number;
  headers?: Array<[string, string]>;
  /** More members of the body, such as the validation errors. */
  extra?: Record<string, unknown>;
}

/** A problem answer of the catalogue (RFC 9457); the body carries its code. */
export function problem<C extends ProblemCode>(code: C, params: ProblemParams<C>, options: ProblemOptions = {}): MockResponse & { error: string } {
  const entry = PROBLEMS[code];
  const status = options.status ?? entry.status;
  const detail = (entry.detail as (p: ProblemParams<C>) => string)(params);
  return {
    status,
    headers: [['content-type', PROBLEM_TYPE], ...(options.headers ?? [])],
    body: JSON.stringify({ type: 'about:blank', title: entry.title, status, detail, code, ...options.extra }),
    error: detail,
  };
}
