import { parseDuration } from '../../common/duration.js';
import { BUILTIN_PROFILES, checkChaosPatch, checkContinuum, checkProfile, checkRouteChaos, checkStateful, checkUpstreamUrl, checkWebhooks, checkCallbacks, compileProxyRules } from '../../runtime/config-checks.js';
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
  return [
    ...latencyRange(config, sources),
    ...listLength(config, sources),
    ...timeTravelSteps(config),
    ...stateMachines(config),
    ...chaosRules(config),
    ...routeChaos(config),
    ...upstream(config),
    ...proxyRules(config),
    ...continuum(config),
    ...webhooks(config),
    ...checkCallbacks(config.callbacks).map(fromLine),
  ];
}

/** `observability.chaos.rate_limit.burst_size: text` as a key path and its text. */
function fromLine(line: string): SemanticError {
  const at = line.indexOf(': ');
  const key = at < 0 ? line : line.slice(0, at);
  const path = key
    .split(/\.|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return { path, text: at < 0 ? 'invalid' : line.slice(at + 2) };
}

/**
 * What the schema cannot say of observability.chaos (patterns, CIDRs, sizes, the profile named),
 * by the checks the Chaos API runs on the same settings and profiles.
 */
function chaosRules(config: MockConfig): SemanticError[] {
  const chaos = config.observability?.chaos;
  if (chaos === undefined) return [];
  const { profile, profiles = [], ...blocks } = chaos;
  const errors = checkChaosPatch(blocks, 'observability.chaos').map(fromLine);
  for (const [i, custom] of profiles.entries()) errors.push(...checkProfile(custom, `observability.chaos.profiles[${i}]`).map(fromLine));
  const known = [...BUILTIN_PROFILES.map((p) => p.name), ...profiles.map((p) => p.name)];
  if (profile !== undefined && !known.includes(profile)) {
    errors.push({ path: ['observability', 'chaos', 'profile'], text: `expected one of ${known.join(', ')} (or add it to observability.chaos.profiles), got ${JSON.stringify(profile)}` });
  }
  return errors;
}

/** core.routes[]: each distribution's parameters, by the check of the route-chaos API. */
function routeChaos(config: MockConfig): SemanticError[] {
  return config.core.routes.flatMap(({ latency, fault_injection }, i) => checkRouteChaos({ latency, fault_injection }, `core.routes[${i}]`).map(fromLine));
}

/** proxy.upstream_url (--proxy-target, MOCK_PROXY_UPSTREAM), by the check of the admin API's proxy settings. */
function upstream(config: MockConfig): SemanticError[] {
  const url = config.proxy.upstream_url;
  const problem = url === undefined ? undefined : checkUpstreamUrl(url);
  return problem === undefined ? [] : [{ path: ['proxy', 'upstream_url'], text: problem }];
}

/** proxy.rules: patterns, upstreams and conditions compiled as the server will (a condition's line gives its position). */
function proxyRules(config: MockConfig): SemanticError[] {
  const rules = config.proxy.rules ?? [];
  return compileProxyRules(rules, 'proxy.rules', config.proxy.upstream_url !== undefined).errors.map(fromLine);
}

/** reality_continuum: an upstream when on, a schedule for the time-based modes, patterns that compile. */
function continuum(config: MockConfig): SemanticError[] {
  const section = config.reality_continuum;
  return section === undefined ? [] : checkContinuum(section, 'reality_continuum', config.proxy.upstream_url !== undefined).map(fromLine);
}

/** contract_diff.webhooks: URLs the sender would refuse (a private address without webhook_allow_private), secrets it cannot read. */
function webhooks(config: MockConfig): SemanticError[] {
  const section = config.contract_diff;
  return section?.webhooks === undefined ? [] : checkWebhooks(section.webhooks, section.webhook_allow_private ?? false).map(fromLine);
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

/** graphql.list_length: min <= max, the one set last (by precedence) blamed. */
function listLength(config: MockConfig, sources: Readonly<Record<string, ConfigSource>>): SemanticError[] {
  const { min, max } = config.graphql.list_length;
  if (min <= max) return [];
  const minRank = RANK[sources['graphql.list_length.min'] ?? 'default'];
  const maxRank = RANK[sources['graphql.list_length.max'] ?? 'default'];
  return [
    minRank >= maxRank
      ? { path: ['graphql', 'list_length', 'min'], text: `expected integer <= graphql.list_length.max (${max}), got ${min}` }
      : { path: ['graphql', 'list_length', 'max'], text: `expected integer >= graphql.list_length.min (${min}), got ${max}` },
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

/**
 * core.stateful: machine names are unique (the admin API addresses them by name), and so are the
 * states of a machine; transitions name its states (the initial state need not have a response);
 * each is a request transition (method and path_pattern) or a timed one (after, above 0), at most
 * one timed transition leaves a state, and no two request transitions leave a state on the same
 * method and path. Then what only the runtime compiles: path patterns, JSONPaths, templates.
 */
function stateMachines(config: MockConfig): SemanticError[] {
  const stateful = config.core.stateful;
  if (stateful === undefined) return [];
  const errors: SemanticError[] = [];
  const names = new Set<string>();
  for (const [m, machine] of stateful.state_machines.entries()) {
    const at = ['core', 'stateful', 'state_machines', m];
    if (names.has(machine.name)) errors.push({ path: [...at, 'name'], text: `expected a name no other machine has, got ${JSON.stringify(machine.name)}` });
    names.add(machine.name);
    const known = new Set([machine.initial_state]);
    const listed = new Set<string>();
    for (const [s, { name }] of machine.states.entries()) {
      if (listed.has(name)) errors.push({ path: [...at, 'states', s, 'name'], text: `expected a state ${machine.name} does not list already, got ${JSON.stringify(name)}` });
      listed.add(name);
      known.add(name);
    }
    const timedFrom = new Map<string, number>();
    const requests = new Map<string, number>();
    for (const [t, transition] of machine.transitions.entries()) {
      const here = [...at, 'transitions', t];
      for (const field of ['from_state', 'to_state'] as const) {
        if (!known.has(transition[field])) errors.push({ path: [...here, field], text: `expected a state of ${machine.name} (${[...known].join(', ')}), got ${JSON.stringify(transition[field])}` });
      }
      const { method, path_pattern, after, from_state } = transition;
      if (after !== undefined) {
        if (method !== undefined || path_pattern !== undefined)
          errors.push({ path: [...here, 'after'], text: 'expected either after (a timed transition) or method and path_pattern (a request transition), got both' });
        if (parseDuration(after) === 0) errors.push({ path: [...here, 'after'], text: `expected a duration above 0, got ${JSON.stringify(after)}` });
        const earlier = timedFrom.get(from_state);
        if (earlier !== undefined)
          errors.push({ path: [...here, 'from_state'], text: `expected at most one timed transition from ${from_state}, got a second one (the first is transitions[${earlier}])` });
        else timedFrom.set(from_state, t);
      } else if (method === undefined || path_pattern === undefined) {
        const missing = method === undefined && path_pattern === undefined ? 'method and path_pattern' : method === undefined ? 'method' : 'path_pattern';
        errors.push({ path: here, text: `expected method and path_pattern (a request transition) or after (a timed one), got no ${missing}` });
      } else {
        const key = `${method.toUpperCase()} ${path_pattern} ${from_state}`;
        const earlier = requests.get(key);
        if (earlier !== undefined)
          errors.push({
            path: here,
            text: `expected one transition per method, path_pattern and from_state, got a second ${method.toUpperCase()} ${path_pattern} from ${from_state} (the first is transitions[${earlier}])`,
          });
        else requests.set(key, t);
      }
    }
  }
  return [...errors, ...checkStateful(stateful, 'core.stateful').map(fromLine)];
}
