import { held, type Exchange } from '../../exchange/index.js';
import type { LiveState } from '../../live/index.js';
import { afterNext, type Stage } from '../stage.js';

/**
 * Global latency: base_ms (or the largest tag override of the operation's tags) plus up to
 * jitter_ms, added to every answer and reported in X-Mock-Injected-Latency-Ms / -Jitter-Ms.
 */
export function latencyStage(live: LiveState): Stage {
  return {
    name: 'latency',
    slot: 'latency',
    appliesTo: () => live.latency.enabled,
    run: (ex, next) =>
      afterNext(next(ex), (answer) => {
        const { base_ms, jitter_ms, tag_overrides } = live.latency;
        const base = baseLatency(base_ms, tag_overrides, ex);
        const jitter = jitter_ms > 0 ? Math.round(Math.random() * jitter_ms) : 0;
        const headers: Array<[string, string]> = [...answer.headers, ['x-mock-injected-latency-ms', String(base + jitter)], ['x-mock-injected-jitter-ms', String(jitter)]];
        return held({ ...answer, headers }, base + jitter);
      }),
    watch: (changed) => live.watch('latency', changed),
  };
}

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
