import { chance } from '../chaos/index.js';
import type { Exchange } from '../exchange/index.js';
import { afterNext, defineStage } from '../stage.js';
import { delayed } from './chaos-answers.js';

/**
 * Global latency: base_ms (or the largest tag override of the operation's tags) plus up to
 * jitter_ms, uniformly, added to every answer (to the share `probability` of them, when a profile
 * says so) and reported in X-Mock-Injected-Latency-Ms / -Jitter-Ms. Draws come from the chaos
 * state's generator, so --seed repeats them.
 */
export const latencyStage = defineStage({ slot: 'latency', kinds: ['description', 'http', 'call', 'upgrade'] }, ({ live }) => {
  const { chaos } = live;
  return {
    appliesTo: () => live.latency.enabled,
    run: (ex, next) => {
      const { base_ms, jitter_ms, tag_overrides, probability } = live.latency;
      if (probability !== undefined && !chance(chaos.random, probability)) return next(ex);
      const base = baseLatency(base_ms, tag_overrides, ex);
      const jitter = jitter_ms > 0 ? Math.round(chaos.random.next() * jitter_ms) : 0;
      return afterNext(next(ex), (answer) => delayed(chaos, answer, base, jitter));
    },
    watch: (changed) => live.watch('latency', changed),
  };
});

/** A tag override replaces the base; with several matching tags the largest wins. Runtime mocks have no tags. */
function baseLatency(base: number, overrides: Record<string, number>, ex: Exchange): number {
  const tags = ex.answeredBy === null ? ex.route?.tags : undefined;
  if (tags === undefined || tags.length === 0) return base;
  let chosen: number | undefined;
  for (const tag of tags) {
    const ms = overrides[tag];
    if (ms !== undefined && (chosen === undefined || ms > chosen)) chosen = ms;
  }
  return chosen ?? base;
}
