import { chance, corrupt, pickOne, type ChaosState, type FaultInjectionSettings } from '../chaos/index.js';
import { bodyLength, held, withoutContent, type Answer, type Exchange } from '../exchange/index.js';
import { afterNext, defineStage } from '../stage.js';
import { andThen, type Awaitable } from '../../store/index.js';
import { dropped, injected, marked, matchable } from './chaos-answers.js';

/**
 * Global fault injection (observability.chaos.fault_injection; spec step 4) for the requests its
 * request_matcher selects. In this order, each with its own probability: a connection error
 * (503, or the connection reset or closed without an answer), a timeout (held, then 504), an
 * HTTP error (random, burst or sequential pattern); then the answer of the rest of the chain may
 * be cut short (partial response: the head and part of the body, then the connection closes) or
 * corrupted. Every injected answer says what it is in X-Mock-Fault.
 */
export const faultInjectionStage = defineStage({ slot: 'fault-injection', kinds: ['description', 'http', 'call', 'upgrade'] }, ({ live: { chaos } }) => {
  return {
    appliesTo: () => chaos.active('fault_injection'),
    run(ex, next) {
      const settings = chaos.settings.fault_injection;
      if (!chaos.machines.matches(matchable(ex))) return next(ex);
      const refused = before(chaos, settings);
      const go = (refusal: Answer | undefined): Answer | Promise<Answer> => {
        if (refusal !== undefined) return refusal;
        if (!(settings.partial_responses || settings.payload_corruption)) return next(ex);
        return afterNext(next(ex), (answer) => after(chaos, settings, ex, answer));
      };
      return refused instanceof Promise ? refused.then(go) : go(refused);
    },
    watch: (changed) => chaos.watch(changed),
  };
});

function before(chaos: ChaosState, s: FaultInjectionSettings): Awaitable<Answer | undefined> {
  const { random } = chaos;
  if (s.connection_errors && chance(random, s.connection_error_probability)) {
    if (s.connection_error_kind !== 'http_503') return dropped(chaos, s.connection_error_kind);
    return injected(chaos, 'connection_error', 'MOCK_ERR_CHAOS_CONNECTION', { why: `connection_error_probability ${s.connection_error_probability}` }, { fault: 'connection_error;kind=http_503' });
  }
  if (s.timeout_errors && chance(random, s.timeout_probability)) {
    return held(injected(chaos, 'timeout', 'MOCK_ERR_CHAOS_TIMEOUT', { ms: s.timeout_ms }), s.timeout_ms);
  }
  return andThen(httpError(chaos, s), (status) => (status === undefined ? undefined : httpErrorAnswer(chaos, s, status)));
}

function httpErrorAnswer(chaos: ChaosState, s: FaultInjectionSettings, status: number): Answer {
  return injected(chaos, 'http_error', 'MOCK_ERR_CHAOS_HTTP_ERROR', { why: s.error_pattern === undefined ? `http_error_probability ${s.http_error_probability}` : `${s.error_pattern.type} error pattern` }, { status, fault: `http_error;status=${status}` });
}

/** The status of an injected HTTP error, or undefined to let the request through. */
function httpError(chaos: ChaosState, s: FaultInjectionSettings): Awaitable<number | undefined> {
  const pattern = chaos.machines.errorPattern;
  const decided = (decision: boolean | number): number | undefined => {
    if (typeof decision === 'number') return decision;
    if (!decision || s.http_errors.length === 0) return undefined;
    return pickOne(chaos.random, s.http_errors);
  };
  if (pattern === undefined) return decided(s.http_errors.length > 0 && chance(chaos.random, s.http_error_probability));
  return andThen(pattern.next(), decided);
}

function after(chaos: ChaosState, s: FaultInjectionSettings, ex: Exchange, answer: Answer): Answer {
  if (answer.status === 0 || withoutContent(ex.method, answer.status) || bodyLength(answer.body) === 0) return answer;
  const { random } = chaos;
  const bytes = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
  if (s.partial_responses && chance(random, s.partial_response_probability)) {
    const kept = Math.floor(random.next() * bytes.byteLength);
    chaos.counters.add('partial_response');
    return {
      ...marked(answer, `partial_response;kept=${kept}`),
      body: bytes,
      error: `partial response injected: ${kept} of ${bytes.byteLength} bytes, then the connection closed`,
      delivery: { ...answer.delivery, truncateAfter: kept },
    };
  }
  if (s.payload_corruption && s.corruption_type !== 'none' && chance(random, s.payload_corruption_probability)) {
    const { body, detail } = corrupt(bytes, s.corruption_type, random);
    chaos.counters.add('payload_corruption');
    return { ...marked(answer, `payload_corruption;${detail}`), body, error: `payload corruption injected: ${detail}` };
  }
  return answer;
}
