import type { SequenceEntry } from '../../../common/contract/index.js';
import type { ItemStream } from '../../chain/exchange/index.js';
import { framingFor, type Framing } from './item-framing.js';

/** http.streams: how many items a streamed answer holds and how fast they come (docs/streaming.md). */
export interface StreamPacing {
  /** Items per answer; `forever`: until the client closes. */
  items: number | 'forever';
  /** Pause between items, in milliseconds. */
  interval_ms: number;
}

export const DEFAULT_PACING: StreamPacing = Object.freeze({ items: 10, interval_ms: 1000 });

/** The bounds of the request's own hints (the schema's for http.streams). */
const MAX_ITEMS = 1_000_000;
const MAX_INTERVAL_MS = 3_600_000;

/**
 * The pacing a request asks for with `Prefer: stream-items=3, stream-interval=250` (or
 * `stream-items=forever`), or `__stream_items`/`__stream_interval` in its query for clients that
 * cannot set headers (EventSource); what it does not ask for, or asks for out of bounds, is the
 * configured pacing's.
 */
export function requestedPacing(base: StreamPacing, prefer: string | undefined, query: ReadonlyMap<string, string[]>): StreamPacing {
  let items = query.get('__stream_items')?.[0];
  let interval = query.get('__stream_interval')?.[0];
  for (const part of (prefer ?? '').split(/[,;]/)) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (key === 'stream-items') items = value;
    else if (key === 'stream-interval') interval = value;
  }
  if (items === undefined && interval === undefined) return base;
  const count = items === 'forever' ? 'forever' : bounded(items, 1, MAX_ITEMS);
  const pause = bounded(interval, 0, MAX_INTERVAL_MS);
  return { items: count ?? base.items, interval_ms: pause ?? base.interval_ms };
}

function bounded(text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

/** What makes an item: the documented examples in turn, else the item schema's generator, each checked against the item schema. */
export interface ItemSource {
  entry: SequenceEntry;
  /** Whether a value fits the item schema; told so the server can warn (validation.validate_responses) and count. */
  check(value: unknown): void;
}

/**
 * The items of one streamed answer, made one at a time as the connection takes them. An SSE
 * stream a client resumes (Last-Event-ID: a sequence number this mock sent) carries on after it.
 */
export function itemStream(source: ItemSource, framing: Framing, pacing: StreamPacing, lastEventId: string | undefined): ItemStream {
  const { entry } = source;
  const first = entry.framing === 'sse' && lastEventId !== undefined && /^\d{1,9}$/.test(lastEventId) ? Number(lastEventId) + 1 : 0;
  const last = pacing.items === 'forever' ? Infinity : first + pacing.items;
  let seq = first;
  return {
    next() {
      if (seq >= last) return undefined;
      const value = entry.examples.length > 0 ? entry.examples[seq % entry.examples.length] : entry.generate !== null ? entry.generate(0) : seq;
      source.check(value);
      return Buffer.from(framing.item(value, seq++));
    },
    done: () => seq >= last,
    ...(framing.tail === undefined ? {} : { tail: Buffer.from(framing.tail) }),
    ...(framing.heartbeat === undefined ? {} : { heartbeat: Buffer.from(framing.heartbeat) }),
    intervalMs: pacing.interval_ms,
  };
}
