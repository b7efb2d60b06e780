import { LRUCache } from 'lru-cache';

/** What GET /__mock/graphql shows of the answer cache. */
export interface AnswerCacheStats {
  /** Answers kept, and the bytes counted for them against graphql.answer_cache_bytes. */
  answers: number;
  bytes: number;
  max_bytes: number;
  /** Lookups that found an answer, and those that did not (the answer was computed). */
  hits: number;
  misses: number;
  /** Times every answer kept was dropped: the object store changed, a mutation ran, the clock's day changed. */
  invalidations: number;
}

/** An entry's own objects besides its key and answer: the entry, the LRU's slots. */
const ENTRY_BYTES = 128;

/**
 * Serialized answers of queries answered before, by a key of the request, all valid for one state
 * of what answers are computed from: `version` (grows with every change of the object store and
 * every mutation) and `day` (generated dates count from the clock's day). A lookup at another
 * state drops them all, so no answer outlives the state it was computed in. Bounded by bytes (the
 * key, the answer, ENTRY_BYTES each); the least recently used go first, and an answer larger than
 * the whole budget is not kept.
 */
export class AnswerCache<T extends object> {
  private readonly entries: LRUCache<string, T>;
  private version = -1;
  private day = Number.NaN;
  private hits = 0;
  private misses = 0;
  private invalidations = 0;

  constructor(private readonly maxBytes: number) {
    this.entries = new LRUCache<string, T>({ maxSize: maxBytes });
  }

  /** The answer kept for `key` in this state. */
  get(key: string, version: number, day: number): T | undefined {
    if (version !== this.version || day !== this.day) this.move(version, day);
    const kept = this.entries.get(key);
    if (kept === undefined) this.misses++;
    else this.hits++;
    return kept;
  }

  /** Keeps `answer` for `key`, computed in the state of the last lookup; false when it alone is larger than the budget. */
  set(key: string, answer: T, bytes: number): boolean {
    const size = ENTRY_BYTES + 2 * key.length + bytes;
    if (size > this.maxBytes) return false;
    this.entries.set(key, answer, { size });
    return true;
  }

  stats(): AnswerCacheStats {
    return { answers: this.entries.size, bytes: this.entries.calculatedSize, max_bytes: this.maxBytes, hits: this.hits, misses: this.misses, invalidations: this.invalidations };
  }

  private move(version: number, day: number): void {
    if (this.entries.size > 0) {
      this.entries.clear();
      this.invalidations++;
    }
    this.version = version;
    this.day = day;
  }
}
