/**
 * Reading a streamed answer (a sequential media type) item by item as its bytes arrive: what
 * `mock conformance` and `mock bench` count, time and validate. The framing of the server side is
 * runtime/terminal/openapi/item-framing.ts.
 */
export type SequenceFraming = 'sse' | 'jsonl' | 'json-seq' | 'multipart';

const FRAMINGS: Record<string, SequenceFraming> = {
  'text/event-stream': 'sse',
  'application/jsonl': 'jsonl',
  'application/x-ndjson': 'jsonl',
  'application/x-jsonlines': 'jsonl',
  'application/json-seq': 'json-seq',
  'multipart/mixed': 'multipart',
};

/** The framing of a media type (parameters ignored), or undefined when it is not sequential. */
export const framingOf = (mediaType: string): SequenceFraming | undefined => FRAMINGS[mediaType.split(';')[0].trim().toLowerCase()];

/** One SSE event's fields (HTML, "Server-sent events": `data` lines joined by LF). */
export interface SseEvent {
  data: string;
  event?: string;
  id?: string;
  retry?: number;
}

export function parseSseEvent(text: string): SseEvent | undefined {
  const data: string[] = [];
  const event: Partial<SseEvent> = {};
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') data.push(value);
    else if (name === 'event') event.event = value;
    else if (name === 'id') event.id = value;
    else if (name === 'retry' && /^\d+$/.test(value)) event.retry = Number(value);
  }
  return data.length === 0 ? undefined : { ...event, data: data.join('\n') };
}

/** Splits text as it arrives into complete items: an SSE event's text, a JSON text (JSON Lines, json-seq), a multipart part's body. */
export class ItemSplitter {
  private buffer = '';
  private readonly boundary: string | undefined;

  constructor(
    readonly framing: SequenceFraming,
    contentType: string,
  ) {
    this.boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  }

  push(text: string): string[] {
    this.buffer += text;
    const items: string[] = [];
    for (;;) {
      const item = this.take();
      if (item === undefined) return items;
      // blank items, and SSE blocks of comments alone (heartbeats), are no items
      if (item.trim() !== '' && !(this.framing === 'sse' && item.split(/\r\n|\r|\n/).every((line) => line === '' || line.startsWith(':')))) items.push(item);
    }
  }

  /** What is left when the stream ends (a last JSON line without its LF). */
  end(): string[] {
    const rest = this.buffer;
    this.buffer = '';
    return this.framing === 'jsonl' || this.framing === 'json-seq' ? (rest.replace(/^\x1e/, '').trim() === '' ? [] : [rest.replace(/^\x1e/, '')]) : [];
  }

  private take(): string | undefined {
    const b = this.buffer;
    switch (this.framing) {
      case 'sse': {
        const at = /\r\n\r\n|\n\n|\r\r/.exec(b);
        if (at === null) return undefined;
        this.buffer = b.slice(at.index + at[0].length);
        return b.slice(0, at.index);
      }
      case 'jsonl': {
        const at = b.indexOf('\n');
        if (at === -1) return undefined;
        this.buffer = b.slice(at + 1);
        return b.slice(0, at);
      }
      case 'json-seq': {
        // an item is complete when the next RS arrives, or its LF (RFC 7464: each text ends with LF)
        const start = b.indexOf('\x1e');
        if (start === -1) return undefined;
        const at = b.indexOf('\n', start);
        if (at === -1) return undefined;
        this.buffer = b.slice(at + 1);
        return b.slice(start + 1, at);
      }
      case 'multipart': {
        if (this.boundary === undefined) return undefined;
        const delimiter = `--${this.boundary}`;
        const first = b.indexOf(delimiter);
        if (first === -1) return undefined;
        const next = b.indexOf(`\r\n${delimiter}`, first + delimiter.length);
        if (next === -1) return undefined;
        const part = b.slice(first + delimiter.length, next);
        this.buffer = b.slice(next + 2);
        const body = part.indexOf('\r\n\r\n');
        return body === -1 ? '' : part.slice(body + 4);
      }
    }
  }
}
