import { LRUCache } from 'lru-cache';
import type { ContentEntry, ExampleEntry, ResponseEntry, TemplateContext, TemplateRuntime } from '../../../common/contract/index.js';
import { bodyLength, reusedAnswer, type Answer } from '../../chain/exchange/index.js';
import type { ResponseCacheOptions } from '../../serve-options.js';
import { templateReads, type TemplateRead } from './template-reads.js';

/**
 * Where an answer comes from: one example, or generation from one content's schema, with the
 * request values its template reads (none without a template); null when it reads the body.
 */
interface Slot {
  readonly id: number;
  /** The status the response is documented with: the one `Prefer: code` almost always asks for. */
  readonly status: number;
  readonly reads: readonly TemplateRead[];
}

/** The slot itself when nothing but its choice decides the answer, else a string of status and read values. */
export type CacheKey = Slot | string;

/** Besides body, headers and key, what one entry holds (objects, arrays, the LRU's bookkeeping). */
const ENTRY_OVERHEAD = 256;

/**
 * response.caching: answers made per request (data generated from a schema, an example's template
 * expanded, response headers generated from their schemas) kept for `ttlSeconds`, the total under
 * `maxSizeMb` (least recently used out first), so a repeated request costs what a pre-serialised
 * example costs. The key is the route's operation, response (so status) and media type — all three
 * are the content entry or example the answer is made from — plus the example or generation chosen
 * (by `Prefer: example=`, `dynamic=`, or the default), the status when `Prefer: code=` picks one
 * in a documented range, and the request values the template reads (path parameters, query values,
 * headers). Each stored answer is one object marked `X-Mock-Cache: hit`, returned as it is.
 */
export class ResponseCache {
  private readonly entries: LRUCache<CacheKey, Answer>;
  /** By example or (for generated data) content entry; null: not cached (the template reads the body). */
  private readonly slots = new Map<ExampleEntry | ContentEntry, Slot | null>();
  private nextId = 0;

  constructor(options: ResponseCacheOptions) {
    const now = options.now;
    this.entries = new LRUCache<CacheKey, Answer>({
      maxSize: options.maxSizeMb * 1024 * 1024,
      ttl: options.ttlSeconds * 1000,
      // the clock is read at each lookup: no timer resetting a cached reading every millisecond
      ttlResolution: 0,
      ...(now === undefined ? {} : { perf: { now } }),
    });
  }

  /**
   * The key of the answer made from `example` of `content` (null: generated from its schema), or
   * undefined when it is not cached: a pre-serialised example without response headers (nothing
   * of it is made per request), or a template that reads the request body. `expand`: template
   * expansion is on. Hot path: a hit without template reads allocates nothing.
   */
  keyOf(status: number, response: ResponseEntry, content: ContentEntry, example: ExampleEntry | null, expand: boolean, t: TemplateRuntime, context: () => TemplateContext): CacheKey | undefined {
    const templated = example !== null && expand && example.template !== null;
    if (example !== null && !templated && response.headers.length === 0) return undefined;
    const source = example ?? content;
    let slot = this.slots.get(source);
    if (slot === undefined) {
      const reads = templated ? templateReads(example.body, content.format === 'json' ? 'json' : 'none') : [];
      slot = reads === null ? null : { id: this.nextId++, status: response.status, reads };
      this.slots.set(source, slot);
    }
    if (slot === null) return undefined;
    if (slot.reads.length === 0 && status === slot.status) return slot;
    let key = `${slot.id} ${status}`;
    if (slot.reads.length > 0) {
      const c = context();
      // each value length-prefixed, so no value can pass for two
      for (const read of slot.reads) {
        const value = read.source === 'path' ? t.path(c, read.name) : read.source === 'query' ? t.query(c, read.name) : t.header(c, read.name);
        key += value === undefined ? ' -' : ` ${value.length}:${value}`;
      }
    }
    return key;
  }

  /** The stored answer (marked as a hit) under `key`, or undefined when there is none or it expired. */
  get(key: CacheKey): Answer | undefined {
    return this.entries.get(key);
  }

  /** Stores `answer` under `key` (unless it alone exceeds the size bound) and returns it marked as a miss. */
  put(key: CacheKey, answer: Answer): Answer {
    const hit = reusedAnswer<Answer>({ ...answer, headers: [...answer.headers, ['x-mock-cache', 'hit']] });
    this.entries.set(key, hit, { size: sizeOf(key, hit) });
    return { ...answer, headers: [...answer.headers, ['x-mock-cache', 'miss']] };
  }

  /** Forgets every answer, and the slots: what an example answers changes with template expansion. */
  clear(): void {
    this.entries.clear();
    this.slots.clear();
  }
}

function sizeOf(key: CacheKey, answer: Answer): number {
  let size = ENTRY_OVERHEAD + bodyLength(answer.body) + (typeof key === 'string' ? key.length : 0);
  for (const [name, value] of answer.headers) size += name.length + value.length;
  return size;
}
