import type { ResponseEntry } from '../../../common/contract/index.js';

/**
 * The response a description documents for a status: the exact code, then its range (`4XX`), then
 * `default` (for any status). -1 when none; the same rule for `Prefer: code=` and for refusals.
 */
export function findResponse(responses: ResponseEntry[], code: string): number {
  const exact = responses.findIndex((r) => r.code === code);
  if (exact !== -1) return exact;
  const range = responses.findIndex((r) => r.code === `${code[0]}XX`);
  if (range !== -1) return range;
  return /^[1-5]\d\d$/.test(code) ? responses.findIndex((r) => r.code === 'default') : -1;
}
