/** Where the server said a request broke the description. */
export type ViolationCategory = 'query' | 'headers' | 'cookies' | 'parameters' | 'request-body';

export interface ViolationEntry {
  method: string;
  /** The operation's path template. */
  path: string;
  category: ViolationCategory;
  reason: string;
  occurrences: number;
  /** The first probe that drew it. */
  probe: string;
}

/** The mock's `errors[].location` (and similar validators' `in`) to an entry category. */
const CATEGORY: Record<string, ViolationCategory> = {
  query: 'query',
  header: 'headers',
  headers: 'headers',
  cookie: 'cookies',
  cookies: 'cookies',
  path: 'parameters',
  parameters: 'parameters',
  body: 'request-body',
  'request-body': 'request-body',
  requestBody: 'request-body',
};

/**
 * Server-side violation entries, one per location the server names in a 4xx problem body. With
 * dedup on (MOCK_CONFORMANCE_BUFFER_UNIQUE, the default), identical (method, path, category,
 * reason) entries merge and count occurrences; off, every one is kept with occurrences 1.
 */
export class ViolationBuffer {
  private readonly list: ViolationEntry[] = [];
  private readonly index = new Map<string, ViolationEntry>();

  constructor(readonly unique: boolean) {}

  /** Reads the entries out of one answer; returns how many it found. */
  record(method: string, path: string, probe: string, status: number, contentType: string, body: string): number {
    if (status < 400 || status >= 500 || !/json/i.test(contentType)) return 0;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return 0;
    }
    const found = violationsOf(status, parsed);
    for (const { category, reason } of found) this.add({ method, path, category, reason, occurrences: 1, probe });
    return found.length;
  }

  add(entry: ViolationEntry): void {
    if (!this.unique) {
      this.list.push(entry);
      return;
    }
    const key = JSON.stringify([entry.method, entry.path, entry.category, entry.reason]);
    const existing = this.index.get(key);
    if (existing) existing.occurrences += entry.occurrences;
    else {
      const copy = { ...entry };
      this.index.set(key, copy);
      this.list.push(copy);
    }
  }

  entries(): ViolationEntry[] {
    return this.list;
  }
}

/** The (category, reason) pairs of a problem body: its `errors[]` with a location, or a 415's request-body complaint. */
export function violationsOf(status: number, body: unknown): Array<{ category: ViolationCategory; reason: string }> {
  if (body === null || typeof body !== 'object') return [];
  const problem = body as Record<string, unknown>;
  const out: Array<{ category: ViolationCategory; reason: string }> = [];
  const errors = Array.isArray(problem.errors) ? problem.errors : Array.isArray(body) ? body : [];
  for (const e of errors as unknown[]) {
    if (e === null || typeof e !== 'object') continue;
    const error = e as Record<string, unknown>;
    const location = typeof error.location === 'string' ? error.location : typeof error.in === 'string' ? error.in : undefined;
    const category = location === undefined ? undefined : CATEGORY[location];
    const reason = typeof error.message === 'string' ? error.message : undefined;
    if (category && reason) out.push({ category, reason });
  }
  if (out.length === 0 && status === 415) {
    const reason = typeof problem.title === 'string' ? problem.title : 'Unsupported Media Type';
    out.push({ category: 'request-body', reason });
  }
  return out;
}
