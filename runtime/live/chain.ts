import type { Engine, EngineRoute, MockRequest, MockResponse } from '../engine/index.js';
import { parseQuery, problem } from '../engine/index.js';
import { forward } from '../proxy/index.js';
import type { LiveState } from './live-state.js';

/** What the server writes: a response, why it failed when it did, and bytes for binary proxied bodies. */
export type Answer = MockResponse & { error?: string; raw?: Uint8Array };

export interface RouteLike {
  key: string;
  method: string;
  path: string;
}

export interface LiveAnswer {
  answer: Answer;
  /** The route that answered, for statistics; null when none matched. */
  route: RouteLike | null;
}

const EMPTY_QUERY = new Map<string, string[]>();

/**
 * The request chain while runtime settings are on, in the spec's order: injected faults, runtime
 * mocks (they override the description), the proxy, then the generated mock; override rules
 * adjust the answer and latency delays it. The synchronous engine path serves when all are off.
 */
export function answerLive(live: LiveState, engine: Engine, req: MockRequest): LiveAnswer | Promise<LiveAnswer> {
  const faults = live.faults;
  if (faults.enabled && faults.status_codes.length > 0 && Math.random() < faults.failure_rate) {
    live.faultsInjected++;
    const status = faults.status_codes[Math.floor(Math.random() * faults.status_codes.length)];
    const answer: Answer = problem('MOCK_ERR_FAULT_INJECTED', { rate: faults.failure_rate }, { status, headers: [['x-mock-fault', `http_${status}`]] });
    return finish(live, req, EMPTY_QUERY, { answer, route: engine.routeOf(req.method, req.url) }, 0);
  }
  const query = req.query === '' ? EMPTY_QUERY : parseQuery(req.query);
  if (live.mocks.size > 0) {
    const matched = live.mocks.match(req, query);
    if (matched !== undefined) {
      const answer = live.mocks.respond(matched, req, engine.templateExpansion, engine.templateRuntime);
      return finish(live, req, query, { answer, route: matched.mock.route }, matched.mock.latency_ms ?? 0);
    }
  }
  if (live.proxying) {
    const { upstream_url, timeout_seconds } = live.proxy;
    return forward(req, upstream_url as string, timeout_seconds).then((answer) => {
      live.requestsProxied++;
      return finish(live, req, query, { answer, route: engine.routeOf(req.method, req.url) }, 0);
    });
  }
  const answer = engine.handle(req);
  return finish(live, req, query, { answer, route: engine.matched }, 0);
}

function finish(live: LiveState, req: MockRequest, query: Map<string, string[]>, result: LiveAnswer, delayMs: number): LiveAnswer | Promise<LiveAnswer> {
  let delay = delayMs;
  if (live.overrides.active) {
    const before = result.answer;
    const applied = live.overrides.apply(req, query, before);
    if (applied.applied.length > 0) {
      const after: Answer = applied.response;
      // a rule that replaced the body also replaces proxied bytes
      if (before.raw !== undefined && after.body !== before.body) delete after.raw;
      result.answer = after;
      delay += applied.delayMs;
    }
  }
  const latency = live.latency;
  if (latency.enabled) {
    const base = baseLatency(latency.base_ms, latency.tag_overrides, result.route);
    const jitter = latency.jitter_ms > 0 ? Math.round(Math.random() * latency.jitter_ms) : 0;
    result.answer = { ...result.answer, headers: [...result.answer.headers, ['x-mock-injected-latency-ms', String(base + jitter)], ['x-mock-injected-jitter-ms', String(jitter)]] };
    delay += base + jitter;
  }
  if (delay <= 0) return result;
  return new Promise((resolve) => setTimeout(resolve, delay, result));
}

/** A tag override replaces the base latency; with several matching tags the largest wins. */
function baseLatency(base: number, overrides: Record<string, number>, route: RouteLike | null): number {
  const tags = (route as EngineRoute | null)?.tags;
  if (tags === undefined || tags.length === 0) return base;
  let chosen: number | undefined;
  for (const tag of tags) {
    const ms = overrides[tag];
    if (ms !== undefined && (chosen === undefined || ms > chosen)) chosen = ms;
  }
  return chosen ?? base;
}
