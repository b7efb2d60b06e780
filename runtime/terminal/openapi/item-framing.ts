import { randomBytes } from 'node:crypto';
import type { SequenceFraming } from '../../../common/contract/index.js';

/** How one item goes on the wire, and what the stream's head and end say. */
export interface Framing {
  /** The Content-Type to answer with (multipart/mixed names its boundary). */
  contentType: string;
  item(value: unknown, seq: number): string;
  tail?: string;
  /** Written in long pauses to keep the connection busy; only where the media type has a no-op. */
  heartbeat?: string;
}

const SSE_FIELDS = new Set(['data', 'event', 'id', 'retry']);

/**
 * An item is an SSE event object when it is an object holding `data` and no key SSE does not
 * define (the 3.2 guidance: itemSchema describes `data`, `event`, `id`, `retry`); anything else
 * is the data of an event.
 */
function isEvent(value: unknown): value is { data: unknown; event?: unknown; id?: unknown; retry?: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'data' in value && Object.keys(value).every((k) => SSE_FIELDS.has(k));
}

/** A field's value on one line: SSE ends a field at CR or LF, and an id may not hold NUL. */
const oneLine = (value: unknown): string => String(value).replace(/[\r\n\0]/g, ' ');

/**
 * One SSE event (HTML, "Server-sent events"): `event` and `retry` as the item gives them, `id` as
 * it gives it or else the item's sequence number (so a client reconnecting with Last-Event-ID
 * resumes after it), `data` as text, JSON for anything but a string, one `data:` line per line.
 */
function sseEvent(value: unknown, seq: number): string {
  const event = isEvent(value) ? value : { data: value };
  let out = '';
  if (event.event !== undefined) out += `event: ${oneLine(event.event)}\n`;
  out += `id: ${oneLine(event.id ?? seq)}\n`;
  if (typeof event.retry === 'number' && Number.isInteger(event.retry) && event.retry >= 0) out += `retry: ${event.retry}\n`;
  const data = typeof event.data === 'string' ? event.data : (JSON.stringify(event.data) ?? 'null');
  for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

const json = (value: unknown): string => JSON.stringify(value) ?? 'null';

export function framingFor(framing: SequenceFraming, type: string): Framing {
  switch (framing) {
    case 'sse':
      // a comment line: EventSource and every SSE reader skip it
      return { contentType: 'text/event-stream', item: sseEvent, heartbeat: ':\n\n' };
    case 'jsonl':
      return { contentType: type, item: (v) => `${json(v)}\n` };
    case 'json-seq':
      // RFC 7464: RS before each text, LF after
      return { contentType: 'application/json-seq', item: (v) => `\x1e${json(v)}\n` };
    case 'multipart': {
      const boundary = `mock-${randomBytes(9).toString('base64url')}`;
      return {
        contentType: `multipart/mixed; boundary=${boundary}`,
        item: (v) => `--${boundary}\r\ncontent-type: ${typeof v === 'string' ? 'text/plain' : 'application/json'}\r\n\r\n${typeof v === 'string' ? v : json(v)}\r\n`,
        tail: `--${boundary}--\r\n`,
      };
    }
  }
}
