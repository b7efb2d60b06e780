import { BUILTIN_PROFILES, checkChaosPatch, checkLatencySpec, latencySpec } from '../../runtime/checks.js';
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
 * Checks across keys of the merged configuration, every broken rule. When two keys disagree the
 * one set by the higher-precedence source is blamed, as that is the one the user just wrote.
 */
export function checkSemantics(config: MockConfig, sources: Readonly<Record<string, ConfigSource>>): SemanticError[] {
  return [...latencyRange(config, sources), ...timeTravelSteps(config), ...stateNames(config), ...chaosRules(config), ...routeLatencies(config)];
}

/** `observability.chaos.rate_limit.burst_size: text` as a key path and its text. */
function fromLine(line: string): SemanticError {
  const at = line.indexOf(': ');
  const key = at < 0 ? line : line.slice(0, at);
  const path = key.split(/\.|\[(\d+)\]/).filter((part) => part !== undefined && part !== '').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return { path, text: at < 0 ? 'invalid' : line.slice(at + 2) };
}

/** What the schema cannot say of observability.chaos: patterns, CIDRs, sizes, and the profile named. */
function chaosRules(config: MockConfig): SemanticError[] {
  const chaos = config.observability?.chaos;
  if (chaos === undefined) return [];
  const { profile, profiles = [], ...blocks } = chaos;
  const errors = checkChaosPatch(blocks, 'observability.chaos').map(fromLine);
  for (const [i, custom] of profiles.entries()) {
    const { latency: _latency, ...rest } = custom.chaos_config;
    errors.push(...checkChaosPatch(rest, `observability.chaos.profiles[${i}].chaos_config`).map(fromLine));
  }
  const known = [...BUILTIN_PROFILES.map((p) => p.name), ...profiles.map((p) => p.name)];
  if (profile !== undefined && !known.includes(profile)) {
    errors.push({ path: ['observability', 'chaos', 'profile'], text: `expected one of ${known.join(', ')} (or add it to observability.chaos.profiles), got ${JSON.stringify(profile)}` });
  }
  return errors;
}

/** core.routes[].latency: each distribution's parameters. */
function routeLatencies(config: MockConfig): SemanticError[] {
  return config.core.routes.flatMap((route, i) =>
    route.latency?.enabled === true ? checkLatencySpec(latencySpec(route.latency), `core.routes[${i}].latency`).map(fromLine) : [],
  );
}

function latencyRange(config: MockConfig, sources: Readonly<Record<string, ConfigSource>>): SemanticError[] {
  const { latency_min_ms: min, latency_max_ms: max } = config.chaos;
  if (min <= max) return [];
  const minRank = RANK[sources['chaos.latency_min_ms'] ?? 'default'];
  const maxRank = RANK[sources['chaos.latency_max_ms'] ?? 'default'];
  return [
    minRank >= maxRank
      ? { path: ['chaos', 'latency_min_ms'], text: `expected integer <= chaos.latency_max_ms (${max}), got ${min}` }
      : { path: ['chaos', 'latency_max_ms'], text: `expected integer >= chaos.latency_min_ms (${min}), got ${max}` },
  ];
}

function timeTravelSteps(config: MockConfig): SemanticError[] {
  const errors: SemanticError[] = [];
  for (const [i, step] of (config.time_travel?.schedule ?? []).entries()) {
    const given = ['jump_to', 'advance_by'].filter((key) => key in step);
    if (given.length === 1) continue;
    const found = given.length === 0 ? 'neither' : 'both';
    errors.push({ path: ['time_travel', 'schedule', i], text: `expected exactly one of jump_to, advance_by, got ${found}` });
  }
  return errors;
}

/** Transitions and the initial state name states of their machine (the initial state need not have a response). */
function stateNames(config: MockConfig): SemanticError[] {
  const errors: SemanticError[] = [];
  const machines = config.core.stateful?.state_machines ?? [];
  for (const [m, machine] of machines.entries()) {
    const known = new Set([machine.initial_state, ...machine.states.map((state) => state.name)]);
    for (const [t, transition] of machine.transitions.entries()) {
      for (const field of ['from_state', 'to_state'] as const) {
        if (known.has(transition[field])) continue;
        const path = ['core', 'stateful', 'state_machines', m, 'transitions', t, field];
        errors.push({ path, text: `expected a state of ${machine.name} (${[...known].join(', ')}), got ${JSON.stringify(transition[field])}` });
      }
    }
  }
  return errors;
}
