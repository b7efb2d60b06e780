import type { KeyPath } from './key-path.js';
import type { ConfigSource } from './layer.js';
import type { MockConfig } from './types.generated.js';

/** A rule the schema cannot state (it relates several keys), broken. */
export interface SemanticError {
  path: KeyPath;
  text: string;
}

const RANK: Record<ConfigSource, number> = { default: 0, file: 1, env: 2, flag: 3 };

/**
 * Checks across keys of the merged configuration. When two keys disagree the one set by the
 * higher-precedence source is blamed, as that is the one the user just wrote.
 */
export function checkSemantics(config: MockConfig, sources: Readonly<Record<string, ConfigSource>>): SemanticError | undefined {
  return latencyRange(config, sources) ?? timeTravelSteps(config) ?? stateNames(config);
}

function latencyRange(config: MockConfig, sources: Readonly<Record<string, ConfigSource>>): SemanticError | undefined {
  const { latency_min_ms: min, latency_max_ms: max } = config.chaos;
  if (min <= max) return undefined;
  const minRank = RANK[sources['chaos.latency_min_ms'] ?? 'default'];
  const maxRank = RANK[sources['chaos.latency_max_ms'] ?? 'default'];
  return minRank >= maxRank
    ? { path: ['chaos', 'latency_min_ms'], text: `expected integer <= chaos.latency_max_ms (${max}), got ${min}` }
    : { path: ['chaos', 'latency_max_ms'], text: `expected integer >= chaos.latency_min_ms (${min}), got ${max}` };
}

function timeTravelSteps(config: MockConfig): SemanticError | undefined {
  const steps = config.time_travel?.schedule ?? [];
  for (const [i, step] of steps.entries()) {
    const given = ['jump_to', 'advance_by'].filter((key) => key in step);
    if (given.length !== 1) {
      const found = given.length === 0 ? 'neither' : 'both';
      return { path: ['time_travel', 'schedule', i], text: `expected exactly one of jump_to, advance_by, got ${found}` };
    }
  }
  return undefined;
}

/** Transitions and the initial state name states of their machine (the initial state need not have a response). */
function stateNames(config: MockConfig): SemanticError | undefined {
  const machines = config.core.stateful?.state_machines ?? [];
  for (const [m, machine] of machines.entries()) {
    const known = new Set([machine.initial_state, ...machine.states.map((state) => state.name)]);
    for (const [t, transition] of machine.transitions.entries()) {
      for (const field of ['from_state', 'to_state'] as const) {
        if (known.has(transition[field])) continue;
        const path = ['core', 'stateful', 'state_machines', m, 'transitions', t, field];
        return { path, text: `expected a state of ${machine.name} (${[...known].join(', ')}), got ${JSON.stringify(transition[field])}` };
      }
    }
  }
  return undefined;
}
