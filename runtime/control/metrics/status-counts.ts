/**
 * Counts per HTTP status code for one route. A route answers with a handful of distinct codes, so
 * a linear scan over two small typed arrays beats hashing, and incrementing a code seen before
 * allocates nothing (a Map holding counts past 2^30 would box every new value). Codes are
 * truncated to integers so that a stray NaN or fraction cannot add a new slot per request.
 */
export class StatusCounts {
  private codes = new Int32Array(4);
  private counts = new Float64Array(4);
  private used = 0;

  add(status: number, count = 1): void {
    const code = status | 0;
    const codes = this.codes;
    for (let i = 0; i < this.used; i++) {
      if (codes[i] === code) {
        this.counts[i] += count;
        return;
      }
    }
    if (this.used === codes.length) this.grow();
    this.codes[this.used] = code;
    this.counts[this.used] = count;
    this.used++;
  }

  /** Calls `visit` for each code, in the order codes were first seen. */
  forEach(visit: (status: number, count: number) => void): void {
    for (let i = 0; i < this.used; i++) visit(this.codes[i], this.counts[i]);
  }

  /** Adds every count of `other` into this one. */
  addAll(other: StatusCounts): void {
    other.forEach((status, count) => this.add(status, count));
  }

  /** `{ "200": 3 }`, for JSON answers. */
  toJSON(): Record<string, number> {
    const out: Record<string, number> = {};
    this.forEach((status, count) => {
      out[status] = count;
    });
    return out;
  }

  /** Forgets the counts but keeps the arrays, so a route's codes come back without growing again. */
  clear(): void {
    this.used = 0;
  }

  private grow(): void {
    const codes = new Int32Array(this.codes.length * 2);
    const counts = new Float64Array(this.counts.length * 2);
    codes.set(this.codes);
    counts.set(this.counts);
    this.codes = codes;
    this.counts = counts;
  }
}
