import type { Answer } from '../exchange/index.js';
import { afterNext, defineStage } from '../stage.js';
import { injected, retryAfter } from './chaos-answers.js';

/** What the breaker counts as a failure: a server error, or a connection ended without an answer. */
const failed = (answer: Answer): boolean => answer.status >= 500 || answer.status === 0;

/**
 * The circuit breaker (observability.chaos.circuit_breaker), outermost: it watches the answers of
 * everything behind it (injected faults included) and, once open, refuses with 503 before any
 * other stage runs, until its timeout lets probes through (half-open).
 */
export const circuitBreakerStage = defineStage({ slot: 'circuit-breaker', kinds: ['description', 'http', 'call', 'upgrade'] }, ({ live: { chaos } }) => {
  return {
    appliesTo: () => chaos.active('circuit_breaker'),
    run(ex, next) {
      const { breaker } = chaos.machines;
      if (!breaker.admit()) {
        const next_attempt = breaker.snapshot().next_attempt_at;
        const retryMs = next_attempt === null ? 0 : Math.max(0, Date.parse(next_attempt) - Date.now());
        return injected(chaos, 'circuit_open', 'MOCK_ERR_CHAOS_CIRCUIT_OPEN', { retryMs }, { headers: [retryAfter(retryMs)] });
      }
      return afterNext(next(ex), (answer) => {
        breaker.record(failed(answer));
        return answer;
      });
    },
    watch: (changed) => chaos.watch(changed),
  };
});
