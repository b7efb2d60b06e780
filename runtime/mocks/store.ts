import { randomUUID } from 'node:crypto';
import type { Answer, Exchange, RouteRef } from '../exchange/index.js';
import type { TemplateRuntime } from '../template/index.js';
import { InputError } from './input-error.js';
import { Mock, type MethodFit } from './mock.js';
import { PatternError, splitRequestPath, templateSegments } from '../match/index.js';
import { readMockRecord } from './record.js';

export type MockResult = { ok: true; mock: Mock } | { ok: false; status: 400 | 404 | 409; error: string };

export interface MockMatch {
  mock: Mock;
  params: Record<string, string>;
}

/** Mocks created at run time over `/__mock/api/mocks`. The caller skips the store while `size` is 0. */
export class MockStore {
  private readonly mocks = new Map<string, Mock>();
  /** Mocks by path segment count: a request only meets mocks of its own length. */
  private readonly byLength = new Map<number, Mock[]>();
  private created = 0;
  private enabled = 0;
  private listeners: Array<() => void> = [];

  /** Called after every change (create, replace, delete, clear). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  get size(): number {
    return this.mocks.size;
  }

  get enabledCount(): number {
    return this.enabled;
  }

  create(input: unknown): MockResult {
    const result = this.compile(input, randomUUID(), this.created + 1);
    if (!result.ok) return result;
    if (this.mocks.has(result.mock.id)) return { ok: false, status: 409, error: `a mock with id "${result.mock.id}" already exists; replace it with PUT or choose another id` };
    this.created++;
    this.add(result.mock);
    this.changed();
    return result;
  }

  /** PUT: a full replacement under `id` (an id in the body is ignored); keeps its place in the list and its age. */
  replace(id: string, input: unknown): MockResult {
    const old = this.mocks.get(id);
    if (old === undefined) return { ok: false, status: 404, error: `no mock has id "${id}"` };
    const body = input !== null && typeof input === 'object' && !Array.isArray(input) ? { ...input, id } : input;
    const result = this.compile(body, id, old.seq);
    if (!result.ok) return result;
    this.remove(old);
    this.add(result.mock);
    this.changed();
    return result;
  }

  get(id: string): Mock | undefined {
    return this.mocks.get(id);
  }

  /** In creation order. */
  list(): Mock[] {
    return [...this.mocks.values()];
  }

  delete(id: string): boolean {
    const mock = this.mocks.get(id);
    if (mock === undefined) return false;
    this.remove(mock);
    this.mocks.delete(id);
    this.changed();
    return true;
  }

  /** Returns how many mocks were deleted. */
  clear(): number {
    const count = this.mocks.size;
    this.mocks.clear();
    this.byLength.clear();
    this.enabled = 0;
    this.changed();
    return count;
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
