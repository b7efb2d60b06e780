import type { Answer, Exchange } from '../exchange/index.js';
import type { ChaosState, CircuitBreaker } from '../chaos/index.js';
import { andThen, type Awaitable } from '../../store/index.js';
import { afterNext, defineStage, type Next } from '../stage.js';
import { injected, retryAfter } from './chaos-answers.js';

/** What the breaker counts as a failure: a server error, or a connection ended without an answer. */
const failed = (answer: Answer): boolean => answer.status >= 500 || answer.status === 0;

/**
 * The circuit breaker (observability.chaos.circuit_breaker), outermost: it watches the answers of
 * everything behind it (injected faults included) and, once open, refuses with 503 before any
 * other stage runs, until its timeout lets probes through (half-open).
 */
export const circuitBreakerStage = defineStage({ slot: 'circuit-breaker', kinds: ['description', 'http', 'call', 'upgrade'] }, ({ live: { chaos } }) => {
  /** The answer of the rest of the chain, its outcome told to the breaker. */
  const pass = (breaker: CircuitBreaker, ex: Exchange, next: Next): Awaitable<Answer> => afterNext(next(ex), (answer) => andThen(breaker.record(failed(answer)), () => answer));
  const refuse = (breaker: CircuitBreaker): Awaitable<Answer> =>
    andThen(breaker.snapshot(), ({ next_attempt_at }) => {
      const retryMs = next_attempt_at === null ? 0 : Math.max(0, Date.parse(next_attempt_at) - Date.now());
      return injected(chaos, 'circuit_open', 'MOCK_ERR_CHAOS_CIRCUIT_OPEN', { retryMs }, { headers: [retryAfter(retryMs)] });
    });
  return {
    appliesTo: () => chaos.active('circuit_breaker'),
    run(ex, next) {
      const { breaker } = chaos.machines;
      const admitted = breaker.admit();
      if (admitted instanceof Promise) return admitted.then((ok) => (ok ? pass(breaker, ex, next) : refuse(breaker)));
      return admitted ? pass(breaker, ex, next) : refuse(breaker);
    },
    watch: (changed) => chaos.watch(changed),
  };
});
