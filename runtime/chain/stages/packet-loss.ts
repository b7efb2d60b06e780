import { chance } from '../chaos/index.js';
import { defineStage } from '../stage.js';
import { injected } from './chaos-answers.js';

/**
 * Simulated packet loss (traffic_shaping.packet_loss_percent): the spec's 408, and the connection
 * closed after it, as a server does when a request never completes (RFC 9110, 408).
 */
export const packetLossStage = defineStage({ slot: 'packet-loss', kinds: ['description', 'http', 'call', 'upgrade'] }, ({ live: { chaos } }) => {
  return {
    appliesTo: () => chaos.active('traffic_shaping') && chaos.settings.traffic_shaping.packet_loss_percent > 0,
    run(ex, next) {
      const percent = chaos.settings.traffic_shaping.packet_loss_percent;
      if (!chance(chaos.random, percent / 100)) return next(ex);
      return { ...injected(chaos, 'packet_loss', 'MOCK_ERR_CHAOS_PACKET_LOSS', { percent }), delivery: { end: 'close' } };
    },
    watch: (changed) => chaos.watch(changed),
  };
});
