import { problem } from '../exchange/index.js';
import { defineStage } from '../stage.js';
import { injected } from './chaos-answers.js';

/**
 * The connection limit (core.max_connections, --max-connections, and traffic_shaping.max_connections
 * when chaos is on; the lower wins): a request on a connection beyond it gets 503 and the
 * connection is closed, so the client's next attempt opens a new one. A server whose limit is a
 * key of its own (websocket.max_connections) refuses with the problem that names it, uncounted by chaos.
 */
export const connectionLimitStage = defineStage({ slot: 'connection-limit', kinds: ['description', 'http', 'call', 'upgrade'] }, ({ live: { chaos }, openConnections, settings }) => {
  const configured = settings.maxConnections;
  const limit = (): number => {
    const shaping = chaos.active('traffic_shaping') ? chaos.settings.traffic_shaping.max_connections : 0;
    const limits = [configured ?? 0, shaping].filter((n) => n > 0);
    return limits.length === 0 ? 0 : Math.min(...limits);
  };
  return {
    appliesTo: () => limit() > 0,
    run(ex, next) {
      const max = limit();
      if (openConnections() <= max) return next(ex);
      if (max === configured && settings.connectionLimitProblem !== undefined) return { ...problem(settings.connectionLimitProblem, { max }, { logged: true }), delivery: { end: 'close' } };
      const answer = injected(chaos, 'connection_limit', 'MOCK_ERR_CHAOS_CONNECTION_LIMIT', { max });
      return { ...answer, delivery: { end: 'close' } };
    },
    watch: (changed) => chaos.watch(changed),
  };
});
