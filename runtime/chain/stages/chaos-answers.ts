import { MAX_DELAY_MS } from '../../../common/bounds.js';
import type { ProblemCode, ProblemParams } from '../../../common/errors.js';
import type { ChaosState, FaultKind } from '../chaos/index.js';
import { problem } from '../exchange/index.js';
import { held, type Answer, type Exchange } from '../exchange/index.js';
import type { MatchableRequest } from '../../match/index.js';

/** An injected problem answer: counted, marked with X-Mock-Fault, its detail in the request log. */
export function injected<C extends ProblemCode>(
  chaos: ChaosState,
  kind: FaultKind,
  code: C,
  params: ProblemParams<C>,
  options: { status?: number; headers?: Array<[string, string]>; fault?: string } = {},
): Answer {
  chaos.counters.add(kind);
  const fault = options.fault ?? kind;
  return { ...problem(code, params, { status: options.status, headers: [['x-mock-fault', fault], ...(options.headers ?? [])], logged: true }), injected: { fault } };
}

/** A connection ended without an answer (tcp_reset, tcp_close): nothing reaches the client but the end itself. */
export function dropped(chaos: ChaosState, kind: 'tcp_reset' | 'tcp_close'): Answer {
  chaos.counters.add(kind);
  return { status: 0, headers: [], body: '', error: `${kind} injected by the mock server`, delivery: { end: kind === 'tcp_reset' ? 'reset' : 'drop' }, injected: { fault: kind }, source: 'chaos' };
}

/**
 * The request as chaos request matchers see it, each field worked out only when a matcher reads
 * it: the client address (decoded from the server library's bytes) only for source_ips.
 */
class MatchView implements MatchableRequest {
  constructor(private readonly ex: Exchange) {}

  get client(): string {
    return this.ex.clientAddress;
  }

  get headers(): Record<string, string> {
    return this.ex.headers;
  }

  get bodyBytes(): number {
    return this.ex.body?.byteLength ?? 0;
  }

  get json(): unknown {
    return this.ex.json;
  }

  get chunked(): boolean {
    return /\bchunked\b/i.test(this.ex.headers['transfer-encoding'] ?? '');
  }
}

export const matchable = (ex: Exchange): MatchableRequest => new MatchView(ex);

/** `answer` marked with a fault that changed it after it was made (partial, corrupted, cut off). */
export function marked(answer: Answer, fault: string): Answer {
  return { ...withHeaders(answer, [['x-mock-fault', fault]]), injected: { ...answer.injected, fault } };
}

/** `answer` with headers added after its own. */
export const withHeaders = (answer: Answer, headers: Array<[string, string]>): Answer => ({ ...answer, headers: [...answer.headers, ...headers] });

/** Whole milliseconds from 0 to MAX_DELAY_MS, for headers: never a fraction, an exponent or NaN. */
export function headerMs(ms: number): number {
  const whole = Math.ceil(ms);
  return whole > 0 ? Math.min(whole, MAX_DELAY_MS) : 0;
}

/**
 * Retry-After in whole seconds (RFC 9110 10.2.3), from 1 to MAX_DELAY_MS / 1000: what a bounded
 * setting can ask for (a breaker's timeout_ms, a rate limit's next token); never 1e+300.
 */
export function retryAfter(ms: number): [string, string] {
  return ['retry-after', String(Math.max(1, Math.ceil(headerMs(ms) / 1000)))];
}

/** `answer` held for base + jitter ms, stamped with the spec's headers, and sampled for the Chaos API. */
export function delayed(chaos: ChaosState, answer: Answer, base: number, jitter: number): Answer {
  const total = Math.max(0, base + jitter);
  chaos.latency.record(total);
  chaos.counters.add('latency');
  const stamped = withHeaders(answer, [
    ['x-mock-injected-latency-ms', String(Math.round(total))],
    ['x-mock-injected-jitter-ms', String(Math.round(jitter))],
  ]);
  const latency_ms = (answer.injected?.latency_ms ?? 0) + Math.round(total);
  return held({ ...stamped, injected: { ...answer.injected, latency_ms } }, total);
}
