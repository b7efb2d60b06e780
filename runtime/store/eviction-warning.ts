import type { StoreBudget } from './store.js';

/** The one warning a minute of a store that forgot `count` entries past its budget (memory or Redis). */
export function evictionWarning(name: string, budget: StoreBudget<never>, count: number): string {
  const mb = Math.round((budget.maxBytes / (1024 * 1024)) * 100) / 100;
  const { setting, forgotten } = budget;
  return `${name}: ${forgotten ?? 'the entries'} fill ${setting} (${mb} MB): the ${count} least recently used were forgotten${budget.afterwards ?? ''}; raise ${setting} to keep more`;
}
