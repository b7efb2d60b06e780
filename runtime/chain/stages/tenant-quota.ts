import { smallRecordsBudget } from '../../store/index.js';
import { problem, type Answer, type Exchange } from '../exchange/index.js';
import { defineStage, type Next } from '../stage.js';
import { retryAfter } from './chaos-answers.js';

const MINUTE_MS = 60_000;

/** Requests counted in the current minute (the window starting at `window`, epoch ms). */
interface MinuteCount {
  window: number;
  count: number;
}

/**
 * A hosted mock's plan (docs/hosting.md): max_requests_per_minute, counted per calendar minute in
 * the tenant's `tenant-usage` store (so instances sharing Redis count together), and
 * max_concurrent_executions, the tenant's requests this process answers at once. Either refusal
 * is a 429 of the catalogue naming the plan. A request holds its place until its answer is written. Registered only on a tenant's server whose plan sets one.
 */
export const tenantQuotaStage = defineStage({ slot: 'tenant-quota', kinds: ['description'] }, ({ live, settings }) => {
  const tenant = settings.tenant;
  if (tenant === undefined || (tenant.requestsPerMinute === undefined && tenant.concurrent === undefined)) return undefined;
  const { id, plan, requestsPerMinute, concurrent } = tenant;
  const usage = requestsPerMinute === undefined ? undefined : live.stores.open<MinuteCount>('tenant-usage', smallRecordsBudget('tenancy.plans.<plan>.quotas'));
  let running = 0;

  /** A request holds its place until its answer is written (held latency included), as the bulkhead's do. */
  const admitted = (ex: Exchange, next: Next): Answer | Promise<Answer> => {
    if (concurrent === undefined) return next(ex);
    if (running >= concurrent) return problem('MOCK_ERR_TENANT_BUSY', { id, plan, max: concurrent }, { logged: true });
    running++;
    let held = true;
    ex.locals.releaseTenantSlot = () => {
      if (held) running--;
      held = false;
    };
    return next(ex);
  };

  return {
    appliesTo: () => true,
    run(ex, next) {
      if (usage === undefined || requestsPerMinute === undefined) return admitted(ex, next);
      const now = Date.now();
      const window = now - (now % MINUTE_MS);
      const counted = usage.update('minute', (current) => (current === undefined || current.window !== window ? { window, count: 1 } : { window, count: current.count + 1 }));
      const decide = (minute: MinuteCount | undefined): Answer | Promise<Answer> =>
        (minute?.count ?? 0) <= requestsPerMinute
          ? admitted(ex, next)
          : problem('MOCK_ERR_TENANT_RATE_LIMITED', { id, plan, max: requestsPerMinute }, { logged: true, headers: [retryAfter(window + MINUTE_MS - now)] });
      return counted instanceof Promise ? counted.then(decide) : decide(counted);
    },
    afterAnswer(ex) {
      ex.locals.releaseTenantSlot?.();
    },
  };
});
