import { readRuleSet } from '../chain/overrides/index.js';
import type { LiveState } from '../chain/settings/index.js';
import { quotaOf, type NamedPlan } from './plans.js';

/** What a write to a hosted mock's admin API would hold, read before the write is made. */
export interface GuardedWrite {
  method: string;
  /** The admin endpoint below /__mock/ (`mocks`, `chaos/profiles`). */
  endpoint: string;
  body: () => unknown;
}

/**
 * The plan's quotas on what a tenant keeps (docs/hosting.md): max_scenarios runtime mocks,
 * max_templates override rules, max_orchestrations custom chaos profiles. Answers the refusal
 * (403, naming the quota and the plan), or undefined.
 */
export function quotaRefusal(id: string, plan: NamedPlan, live: LiveState, write: GuardedWrite): string | undefined {
  const { method, endpoint } = write;
  const over = (quota: 'max_scenarios' | 'max_templates' | 'max_orchestrations', what: string, count: number, adding: number): string | undefined => {
    const max = quotaOf(plan, quota);
    if (max === undefined || count + adding <= max) return undefined;
    return `hosted mock "${id}" would hold ${count + adding} ${what}, more than its plan ${plan.name} allows (${quota} ${max}); delete some, or move it to a larger plan`;
  };
  if (method === 'POST' && endpoint === 'mocks') return over('max_scenarios', 'runtime mocks', live.mocks.size, 1);
  if (method === 'PUT' && endpoint === 'overrides') {
    const read = readRuleSet(write.body());
    return read.ok ? over('max_templates', 'override rules', 0, read.rules.length) : undefined;
  }
  if (method === 'POST' && (endpoint === 'chaos/profiles' || endpoint === 'chaos/profiles/import')) {
    const custom = live.chaos.profiles().filter((profile) => !profile.builtin).length;
    return over('max_orchestrations', 'custom chaos profiles', custom, 1);
  }
  return undefined;
}
