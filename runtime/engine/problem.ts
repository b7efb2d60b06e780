import type { MockResponse } from './request.js';

export const PROBLEM_TYPE = 'application/problem+json';

/** An RFC 9457 problem body; `extra` adds members such as the validation errors. */
export function problem(status: number, title: string, detail: string, extra?: Record<string, unknown>, headers: Array<[string, string]> = []): MockResponse {
  return {
    status,
    headers: [['content-type', PROBLEM_TYPE], ...headers],
    body: JSON.stringify({ type: 'about:blank', title, status, detail, ...extra }),
  };
}
