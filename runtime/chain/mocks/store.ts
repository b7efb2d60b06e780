import { randomUUID } from 'node:crypto';
import type { Answer, Exchange, RouteRef } from '../exchange/index.js';
import type { TemplateRuntime } from '../../template/index.js';
import { InputError } from './input-error.js';
import { Mock, type MethodFit } from './mock.js';
import { PatternError, splitRequestPath, templateSegments } from '../../match/index.js';
import { readMockRecord, type MockRecord } from './record.js';
import { DEFAULT_ADMIN_LIMITS } from '../../serve-options.js';
import { andThen, MemoryStore, type Awaitable, type Store, type StoreBudget, type StoreChange } from '../../store/index.js';

export type MockFailure = { ok: false; status: 400 | 404 | 409 | 413; error: string };
export type MockResult = { ok: true; mock: Mock } | MockFailure;

/** admin.limits for runtime mocks: the management router is reachable from the network by default. */
export interface MockLimits {
  /** admin.limits.max_mocks */
  maxMocks: number;
  /** admin.limits.max_mock_bytes: one mock's JSON, as sent. */
  maxMockBytes: number;
}

/** A mock's size when no request body says it: its JSON. */
const jsonBytes = (input: unknown): number => Buffer.byteLength(JSON.stringify(input) ?? '');

export interface MockMatch {
  mock: Mock;
  params: Record<string, string>;
}

/** A runtime mock as the `runtime-mocks` store holds it: the checked record and its creation order. */
export interface StoredMock {
  readonly record: MockRecord;
  readonly seq: number;
}

/**
 * The `runtime-mocks` store's budget: admin.limits.max_mocks mocks of at most max_mock_bytes each
 * (as UTF-16, with room for the record's own keys), refused past it; refusal() says which limit
 * with its own message first, so this is the backstop.
 */
export const mocksBudget = (limits: MockLimits): StoreBudget<StoredMock> => ({
  maxBytes: limits.maxMocks * (2 * limits.maxMockBytes + 1024),
  past: 'refuse',
  setting: 'admin.limits.max_mocks',
  sizeOf: (key, value) => 2 * (key.length + JSON.stringify(value.record).length),
});

/**
 * Mocks created at run time over `/__mock/api/mocks`, kept in the `runtime-mocks` store and
 * compiled here from its changes (whichever instance made them). The caller skips the store while
 * `size` is 0.
 */
export class MockStore {
  private readonly store: Store<StoredMock>;
  /** The compiled mocks, in creation order (a replacement keeps its place). */
  private readonly mocks = new Map<string, Mock>();
  /** The mock a write of this instance compiled already, taken by the change it makes. */
  private compiled: Mock | undefined;
  /** While a clear runs: its listeners are told once, at the end. */
  private clearing = false;
  /** Mocks by path segment count: a request only meets mocks of its own length. */
  private readonly byLength = new Map<number, Mock[]>();
  private created = 0;
  private enabled = 0;
  private listeners: Array<() => void> = [];
  private forgetters: Array<(route: RouteRef) => void> = [];

  constructor(
    readonly limits: MockLimits = { maxMocks: DEFAULT_ADMIN_LIMITS.max_mocks, maxMockBytes: DEFAULT_ADMIN_LIMITS.max_mock_bytes },
    store?: Store<StoredMock>,
  ) {
    this.store = store ?? new MemoryStore('runtime-mocks', mocksBudget(limits));
    this.store.subscribe((change) => this.apply(change));
    // what the store holds already (made by another instance or worker, or before a restart of this one) serves from the first request:
    // the servers listen once the store has settled
    andThen(this.store.entries(), (held) => {
      for (const [key, value] of held) {
        if (!this.mocks.has(key)) this.apply({ key, value });
        this.created = Math.max(this.created, value.seq);
      }
    });
  }

  /** Called after every change (create, replace, delete, clear). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Called with the route of a mock that was deleted or replaced when no mock left has its key (`GET /x`): what is counted under it can go. */
  onForget(listener: (route: RouteRef) => void): void {
    this.forgetters.push(listener);
  }

  /**
   * Why a mock of `bytes` (its JSON as sent) cannot be stored now, or undefined; `adding`: a new
   * one, not a replacement. Cheap, so callers ask before they parse a body.
   */
  refusal(bytes: number, adding: boolean): MockFailure | undefined {
    const { maxMocks, maxMockBytes } = this.limits;
    if (adding && this.mocks.size >= maxMocks) {
      return { ok: false, status: 409, error: `there are already ${this.mocks.size} runtime mocks, the most admin.limits.max_mocks allows; delete some (DELETE /__mock/api/mocks/{id}) or raise admin.limits.max_mocks in mock.yaml` };
    }
    if (bytes > maxMockBytes) {
      return { ok: false, status: 413, error: `the mock is ${bytes} bytes of JSON, more than admin.limits.max_mock_bytes (${maxMockBytes}); make its response body smaller or raise admin.limits.max_mock_bytes in mock.yaml` };
    }
    return undefined;
  }

  get size(): number {
    return this.mocks.size;
  }

  get enabledCount(): number {
    return this.enabled;
  }

  /** `bytes`: the size of the mock's JSON as sent (default: `input` serialised). Settles once the store holds it (every instance sharing it serves it then). */
  create(input: unknown, bytes = jsonBytes(input)): Awaitable<MockResult> {
    const refused = this.refusal(bytes, true);
    if (refused !== undefined) return refused;
    const result = this.compile(input, randomUUID(), this.created + 1);
    if (!result.ok) return result;
    if (this.mocks.has(result.mock.id)) return { ok: false, status: 409, error: `a mock with id "${result.mock.id}" already exists; replace it with PUT or choose another id` };
    this.created++;
    return andThen(this.write(result.mock), () => result);
  }

  /** PUT: a full replacement under `id` (an id in the body is ignored); keeps its place in the list and its age. */
  replace(id: string, input: unknown, bytes = jsonBytes(input)): Awaitable<MockResult> {
    const old = this.mocks.get(id);
    if (old === undefined) return { ok: false, status: 404, error: `no mock has id "${id}"` };
    const refused = this.refusal(bytes, false);
    if (refused !== undefined) return refused;
    const body = input !== null && typeof input === 'object' && !Array.isArray(input) ? { ...input, id } : input;
    const result = this.compile(body, id, old.seq);
    if (!result.ok) return result;
    return andThen(this.write(result.mock), () => result);
  }

  get(id: string): Mock | undefined {
    return this.mocks.get(id);
  }

  /** In creation order. */
  list(): Mock[] {
    return [...this.mocks.values()];
  }

  delete(id: string): Awaitable<boolean> {
    if (!this.mocks.has(id)) return false;
    return andThen(this.store.delete(id), () => true);
  }

  /** Answers how many mocks were deleted. */
  clear(): Awaitable<number> {
    const count = this.mocks.size;
    this.clearing = true;
    let cleared: Awaitable<number>;
    try {
      cleared = this.store.clear();
    } finally {
      this.clearing = false;
    }
    this.changed();
    return andThen(cleared, () => count);
  }

  /** Stores a mock this instance compiled; the change it makes installs it (at once in memory, once the store has it otherwise). */
  private write(mock: Mock): Awaitable<void> {
    this.compiled = mock;
    try {
      return this.store.set(mock.id, { record: mock.record, seq: mock.seq });
    } finally {
      this.compiled = undefined;
    }
  }

  /** A change of the store, made here or by another instance: the compiled mocks follow it. */
  private apply({ key, value }: StoreChange<StoredMock>): void {
    const old = this.mocks.get(key);
    if (old !== undefined) this.remove(old);
    if (value === undefined) this.mocks.delete(key);
    else this.add(this.compiled?.id === key ? this.compiled : new Mock(value.record, value.seq));
    if (old !== undefined) this.forgetUnused([old]);
    if (!this.clearing) this.changed();
  }

  /** Tells the forgetters about each route key of `gone` that no remaining mock uses. */
  private forgetUnused(gone: Mock[]): void {
    if (this.forgetters.length === 0) return;
    const used = new Set<string>();
    for (const mock of this.mocks.values()) used.add(mock.route.key);
    for (const mock of gone) {
      if (used.has(mock.route.key)) continue;
      used.add(mock.route.key);
      for (const forget of this.forgetters) forget(mock.route);
    }
  }

  /** Whether an enabled mock could answer a request the router sends to `route` (null: no route): its path and the route's may name the same request path. */
  mayAnswer(route: RouteRef | null): boolean {
    if (this.enabled === 0) return false;
    if (route === null) return true;
    const template = templateSegments(route.path);
    for (const mock of this.mocks.values()) if (mock.enabled && mock.mayShareRequests(template)) return true;
    return false;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Hot path. The best enabled mock for the request (see Mock.outranks), or undefined. */
  match(ex: Exchange): MockMatch | undefined {
    if (this.enabled === 0) return undefined;
    const segments = splitRequestPath(ex.path);
    const candidates = this.byLength.get(segments.length);
    if (candidates === undefined) return undefined;
    let best: Mock | undefined;
    let bestFit: MethodFit = 0;
    for (const mock of candidates) {
      if (!mock.enabled) continue;
      const fit = mock.methodFit(ex.method);
      if (fit === 0 || (best !== undefined && !mock.outranks(fit, best, bestFit)) || !mock.matchesPath(segments)) continue;
      if (!mock.matchesConditions(ex)) continue;
      best = mock;
      bestFit = fit;
    }
    return best === undefined ? undefined : { mock: best, params: best.params(segments) };
  }

  respond(matched: MockMatch, ex: Exchange, templateExpand: boolean, templates: TemplateRuntime): Answer {
    return matched.mock.respond(matched.params, ex, templateExpand, templates);
  }

  private compile(input: unknown, id: string, seq: number): MockResult {
    try {
      return { ok: true, mock: new Mock(readMockRecord(input, id), seq) };
    } catch (error) {
      if (error instanceof InputError || error instanceof PatternError) return { ok: false, status: 400, error: error.message };
      throw error;
    }
  }

  private add(mock: Mock): void {
    this.mocks.set(mock.id, mock);
    const list = this.byLength.get(mock.segmentCount);
    if (list === undefined) this.byLength.set(mock.segmentCount, [mock]);
    else list.push(mock);
    if (mock.enabled) this.enabled++;
  }

  private remove(mock: Mock): void {
    const list = this.byLength.get(mock.segmentCount)!;
    list.splice(list.indexOf(mock), 1);
    if (mock.enabled) this.enabled--;
  }
}
