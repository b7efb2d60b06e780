import { isUtf8 } from 'node:buffer';
import type { Logger } from 'pino';
import type { Description } from '../chain/description.js';
import { bytesOf, type Answer, type Exchange } from '../chain/exchange/index.js';
import type { RecordingRedaction } from '../chain/fixtures/index.js';
import { mismatchesOf } from './analyze.js';
import type { Capture } from './capture.js';
import type { CaptureLog } from './capture-log.js';
import type { DriftListener } from './listener.js';
import type { Mismatch } from './mismatch.js';

export const VIOLATIONS_HEADER = 'x-mock-violations';
/** Longest X-Mock-Violations value: proxies and clients refuse long header lines (8 KiB is common). */
export const MAX_VIOLATIONS_BYTES = 4096;

/** JSON made ASCII: every character past `~` escaped, so that no header writer rejects or re-encodes it. */
const ascii = (json: string): string => json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The X-Mock-Violations value (Prism's sl-violations, made safe): a JSON array of
 * `{type, location, field, severity, message}`, ASCII only, at most MAX_VIOLATIONS_BYTES; past it
 * the last element is `{"truncated": <mismatches left out>}`.
 */
export function violationsHeader(mismatches: readonly Mismatch[]): string {
  const parts: string[] = [];
  let length = 2;
  for (let i = 0; i < mismatches.length; i++) {
    const { type, location, field, severity, message } = mismatches[i];
    const part = ascii(JSON.stringify({ type, location, field, severity, message: message.length > 200 ? `${message.slice(0, 199)}…` : message }));
    const tail = i === mismatches.length - 1 ? 0 : 32;
    if (length + part.length + 1 + tail > MAX_VIOLATIONS_BYTES) {
      parts.push(`{"truncated":${mismatches.length - i}}`);
      break;
    }
    parts.push(part);
    length += part.length + 1;
  }
  return `[${parts.join(',')}]`;
}

const text = (bytes: Uint8Array | undefined): string | undefined => {
  if (bytes === undefined || bytes.byteLength === 0) return undefined;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return isUtf8(buffer) ? buffer.toString('utf8') : undefined;
};

function headerRecord(headers: ReadonlyArray<[string, string]>, redaction: RecordingRedaction): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [raw, value] of headers) {
    const name = raw.toLowerCase();
    const shown = redaction.headers({ [name]: value })[name];
    const seen = out[name];
    out[name] = seen === undefined ? shown : Array.isArray(seen) ? [...seen, shown] : [seen, shown];
  }
  return out;
}

/**
 * contract_diff.capture: an exchange answered by a real upstream (the proxy, its rules, the
 * continuum's upstream side) held against the served description as it passes, kept in the
 * captures store (credentials redacted as the request log redacts them), and its answer marked
 * with X-Mock-Violations when it breaks the description. Keeping it never fails the answer.
 */
export class LiveCheck {
  constructor(
    private readonly log: CaptureLog,
    private readonly redaction: RecordingRedaction,
    private readonly header: boolean,
    private readonly logger: Logger,
    private readonly listener?: DriftListener,
  ) {}

  check(description: Description, ex: Exchange, answer: Answer): Answer {
    const body = bytesOf(answer.body);
    const contentType = answer.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    const { operation, mismatches } = mismatchesOf(description, ex, { status: answer.status, contentType, body });
    this.keep(ex, answer, body, { operation: operation ?? undefined, mismatches });
    if (!this.header || mismatches.length === 0) return answer;
    return { ...answer, headers: [...answer.headers, [VIOLATIONS_HEADER, violationsHeader(mismatches)]] };
  }

  private keep(ex: Exchange, answer: Answer, body: Uint8Array, { operation, mismatches }: { operation?: string; mismatches: Mismatch[] }): void {
    const query = this.redaction.queryString(ex.rawQuery);
    const capture: Capture = { method: ex.method, path: query === '' ? ex.path : `${ex.path}?${query}`, headers: this.redaction.headers(ex.headers), query_params: {} };
    const requestBody = text(ex.body);
    if (requestBody !== undefined) capture.body = requestBody;
    capture.response = { status: answer.status, headers: headerRecord(answer.headers, this.redaction) };
    const answerBody = text(body);
    if (answerBody !== undefined) capture.response.body = answerBody;
    const failed = (e: unknown): void => this.logger.warn({ err: e, method: ex.method, path: ex.path }, 'a proxied exchange was not kept for contract diff');
    try {
      // the real clock, as uploads: ids sort by arrival even while time travel moves the virtual one
      const kept = this.log.add(capture, 'proxy', Date.now());
      const told = ({ id }: { id: string }): void => {
        if (mismatches.length > 0) this.listener?.({ capture_id: id, method: ex.method, path: ex.path, operation, mismatches });
      };
      if (kept instanceof Promise) kept.then(told, failed);
      else told(kept);
    } catch (e) {
      failed(e);
    }
  }
}
