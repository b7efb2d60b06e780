import { parseDuration as parseDurationMs } from '../../common/duration.js';
import { MockError } from '../../common/errors.js';

const invalid = (flag: string, message: string): MockError => new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: ${message}`);

/** `60` (seconds), or a duration of common/duration.ts (`30s`, `2m`, `1h`, `500ms`, `1m30s`) → milliseconds (> 0). */
export function parseDuration(text: string, flag: string): number {
  const trimmed = text.trim().toLowerCase();
  const ms = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) * 1000 : parseDurationMs(trimmed);
  if (ms === undefined) throw invalid(flag, `not a duration: ${JSON.stringify(text)} (e.g. 30, 30s, 2m, 1h, 500ms)`);
  return positive(ms, flag, text);
}

function positive(ms: number, flag: string, text: string): number {
  if (!(ms > 0) || !Number.isFinite(ms)) throw invalid(flag, `must be longer than zero, got ${JSON.stringify(text)}`);
  return Math.round(ms);
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** `1024`, `512B`, `4KB`, `1MB` (binary multiples: 1KB = 1024 bytes) → bytes. */
export function parseSize(text: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(text.trim().toLowerCase());
  const unit = m ? SIZE_UNITS[m[2]] : undefined;
  if (!m || unit === undefined) throw invalid(flag, `not a size: ${JSON.stringify(text)} (e.g. 512B, 1KB, 4KB, 1MB)`);
  const bytes = Math.round(Number(m[1]) * unit);
  if (!(bytes > 0)) throw invalid(flag, `must be at least 1 byte, got ${JSON.stringify(text)}`);
  return bytes;
}

/** `--repeat-until`: is it an ISO 8601 instant (else a duration)? */
export const isInstant = (text: string): boolean => /^\d{4}-\d{2}-\d{2}/.test(text.trim());

/** `--repeat-until`: an ISO 8601 instant, or a duration counted from `now` → epoch milliseconds. */
export function parseUntil(text: string, now: number, flag = '--repeat-until'): number {
  const trimmed = text.trim();
  if (isInstant(trimmed)) {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) throw invalid(flag, `not an ISO 8601 time: ${JSON.stringify(text)} (e.g. 2025-06-01T18:00:00Z, or a duration such as 10m)`);
    return at;
  }
  try {
    return now + parseDuration(trimmed, flag);
  } catch {
    throw invalid(flag, `neither an ISO 8601 time nor a duration: ${JSON.stringify(text)} (e.g. 2025-06-01T18:00:00Z, 10m, 1h)`);
  }
}

/** A positive finite number, or throws naming the flag. */
export function positiveNumber(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!(value > 0) || !Number.isFinite(value)) throw invalid(flag, `must be a number above zero, got ${value}`);
  return value;
}

export { invalid as flagError };
