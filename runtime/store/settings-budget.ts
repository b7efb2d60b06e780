import type { StoreBudget } from './store.js';

/**
 * The `settings` store's budget. What it holds is bounded per kind by admin.limits (override rules,
 * chaos profiles, their bytes) with messages of their own; this is the backstop, and a write past
 * it is refused. A setting costs its JSON as UTF-16.
 */
export const settingsBudget: StoreBudget<unknown> = {
  maxBytes: 64 * 1024 * 1024,
  past: 'refuse',
  setting: 'admin.limits',
  sizeOf: (key, value) => 2 * (key.length + (JSON.stringify(value)?.length ?? 0)),
};
