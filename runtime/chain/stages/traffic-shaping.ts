import type { ChaosState } from '../chaos/index.js';
import { bodyLength, type Answer } from '../exchange/index.js';
import { afterNext, defineStage } from '../stage.js';
import { marked } from './chaos-answers.js';

/**
 * Bandwidth and the connection timeout (observability.chaos.traffic_shaping). The body is paced by
 * the server adapter as it writes it (the answer's delivery), so the first byte is not delayed by
 * the body's size; an answer that would take longer than connection_timeout_ms (held by latency,
 * or paced) is cut off at that time with the connection closed.
 */
export const trafficShapingStage = defineStage({ slot: 'traffic-shaping', kinds: ['description', 'http'] }, ({ live: { chaos } }) => {
  const shaping = () => chaos.settings.traffic_shaping;
  return {
    appliesTo: () => chaos.active('traffic_shaping') && (shaping().bandwidth_limit_bps > 0 || shaping().connection_timeout_ms > 0),
    run: (ex, next) => afterNext(next(ex), (answer) => shape(chaos, answer)),
    watch: (changed) => chaos.watch(changed),
  };
});

function shape(chaos: ChaosState, answer: Answer): Answer {
  const { bandwidth_limit_bps: bps, connection_timeout_ms: timeout } = chaos.settings.traffic_shaping;
  if (answer.status === 0) return answer;
  const paced: Answer = bps > 0 ? { ...answer, delivery: { ...answer.delivery, bytesPerSecond: bps } } : answer;
  if (timeout <= 0) return paced;
  const hold = paced.delivery?.holdMs ?? 0;
  const transfer = bps > 0 ? (bodyLength(answer.body) / bps) * 1000 : 0;
  if (hold + transfer <= timeout) return paced;
  chaos.counters.add('timeout');
  return { ...marked(paced, 'connection_timeout'), error: `connection timed out after ${timeout} ms (traffic_shaping.connection_timeout_ms)`, delivery: { holdMs: timeout, end: 'drop' } };
}
