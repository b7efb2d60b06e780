import type { RateLimitScope, RateLimitSettings, Taken } from '../chaos/index.js';
import { rateLimited } from '../exchange/index.js';
import type { Answer, Exchange } from '../exchange/index.js';
import { afterNext, defineStage, type Next } from '../stage.js';
import { headerMs, retryAfter, withHeaders } from './chaos-answers.js';

const scopeOf = (s: RateLimitSettings): RateLimitScope => (s.per_ip ? 'per_ip' : s.per_endpoint ? 'per_endpoint' : 'global');

/** The bucket a request draws from: one for all, per client address, per route, or per both. */
function keyOf(s: RateLimitSettings, ex: Exchange): string {
  if (!s.per_ip && !s.per_endpoint) return '';
  return `${s.per_ip ? ex.clientAddress : ''} ${s.per_endpoint ? (ex.route?.key ?? `${ex.method} (no route)`) : ''}`;
}

/**
 * IETF draft-ietf-httpapi-ratelimit-headers: the policy (the bucket's size, and the seconds the
 * rate takes to refill it) and what is left of it now.
 */
function ietfHeaders(s: RateLimitSettings, remaining: number): Array<[string, string]> {
  const quota = Math.max(1, s.burst_size);
  const window = Math.max(1, Math.ceil(quota / s.requests_per_second));
  const refill = Math.max(0, Math.ceil((quota - remaining) / s.requests_per_second));
  return [
    ['ratelimit-policy', `"mock";q=${quota};w=${window}`],
    ['ratelimit', `"mock";r=${Math.floor(remaining)};t=${refill}`],
  ];
}

/**
 * The token-bucket rate limiter (observability.chaos.rate_limit): requests_per_second sustained
 * after burst_size; a refused request gets 429 `Rate limit exceeded` with Retry-After the time
 * until the next token (rounded up to whole seconds, as HTTP wants; exact in X-Mock-Retry-After-Ms).
 */
export const rateLimitStage = defineStage({ slot: 'rate-limit', kinds: ['description', 'http', 'call', 'upgrade'] }, ({ live: { chaos } }) => {
  return {
    appliesTo: () => chaos.active('rate_limit'),
    run(ex, next) {
      const settings = chaos.settings.rate_limit;
      const taken = chaos.machines.limiter.take(keyOf(settings, ex));
      return taken instanceof Promise ? taken.then((t) => admit(settings, t, ex, next)) : admit(settings, taken, ex, next);
    },
    watch: (changed) => chaos.watch(changed),
  };

  function admit(settings: RateLimitSettings, taken: Taken, ex: Exchange, next: Next): Answer | Promise<Answer> {
    if (!taken.ok) {
      chaos.counters.add('rate_limited');
      chaos.countViolation(scopeOf(settings));
      return rateLimited([
        retryAfter(taken.retryAfterMs),
        ['x-mock-retry-after-ms', String(headerMs(taken.retryAfterMs))],
        ['x-mock-fault', 'rate_limited'],
        ...(settings.headers ? ietfHeaders(settings, 0) : []),
      ]);
    }
    if (!settings.headers) return next(ex);
    return afterNext(next(ex), (answer) => withHeaders(answer, ietfHeaders(settings, taken.remaining)));
  }
});
