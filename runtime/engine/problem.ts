import { PROBLEMS, type ProblemCode, type ProblemParams } from '../../common/errors.js';
import type { Answer } from '../exchange/index.js';

export const PROBLEM_TYPE = 'application/problem+json';

export interface ProblemOptions {
  /** Where the catalogue's status is a default: validation.status_code, an injected fault's. */
  status?: number;
  headers?: Array<[string, string]>;
  /** More members of the body, such as the validation errors. */
  extra?: Record<string, unknown>;
  /** The detail becomes the request log's error_message: for requests refused or failed, not for answers such as a 404. */
  logged?: boolean;
}

/** A problem answer of the catalogue (RFC 9457); the body carries its code. */
export function problem<C extends ProblemCode>(code: C, params: ProblemParams<C>, options: ProblemOptions = {}): Answer {
  const entry = PROBLEMS[code];
  const status = options.status ?? entry.status;
  const detail = (entry.detail as (p: ProblemParams<C>) => string)(params);
  return {
    status,
    headers: [['content-type', PROBLEM_TYPE], ...(options.headers ?? [])],
    body: JSON.stringify({ type: 'about:blank', title: entry.title, status, detail, code, ...options.extra }),
    ...(options.logged === true ? { error: detail } : {}),
  };
}
