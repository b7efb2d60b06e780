/**
 * When to try a delivery again: after a network error, a 5xx or a 429, at most MAX_ATTEMPTS times
 * in all, waiting `base · 2^(attempt-1)` with full jitter in its upper half (so that many mocks
 * retrying at once spread out), capped at MAX_DELAY_MS; a Retry-After (seconds or an HTTP date)
 * is honoured instead, up to the same cap.
 */
export const MAX_ATTEMPTS = 5;
export const BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 30_000;

export function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Milliseconds to wait before attempt `attempt + 1`. */
export function retryDelay(attempt: number, retryAfter: string | undefined, baseMs: number, random: () => number = Math.random): number {
  const asked = retryAfter === undefined ? undefined : retryAfterMs(retryAfter);
  if (asked !== undefined) return Math.min(asked, MAX_DELAY_MS);
  const ceiling = Math.min(baseMs * 2 ** (attempt - 1), MAX_DELAY_MS);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function retryAfterMs(value: string): number | undefined {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
