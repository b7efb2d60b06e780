import type { ValidationOptions } from '../../../serve-options.js';
import { bodyChecker } from '../body-schema.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok } from '../envelope.js';
import { checkFaults, checkLatency, checkProxy, checkValidation } from '../live-settings.js';
import type { AdminCall, AdminRoute } from '../router.js';
import { proxyView } from '../views.js';
import { serversOf } from '../server-control.js';

type Section = 'latency' | 'faults' | 'proxy';

const checkConfig = bodyChecker<Record<string, unknown>>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { latency: { type: 'object' }, faults: { type: 'object' }, proxy: { type: 'object' }, validation: { type: 'object' } },
});

/** The validation object of GET /__mock/config (skip_admin_validation: the admin API is never validated against the description). */
function validationView(ctx: AdminContext): Record<string, unknown> | null {
  const engine = serversOf(ctx.registry).engine();
  return engine === undefined ? null : { ...engine.validationOptions, skip_admin_validation: true };
}

/** A section as answers and log lines show it. */
function sectionView(ctx: AdminContext, section: Section): unknown {
  return section === 'proxy' ? proxyView(ctx.live.proxy) : ctx.live[section];
}

function configView(ctx: AdminContext): Record<string, unknown> {
  return { latency: ctx.live.latency, faults: ctx.live.faults, proxy: sectionView(ctx, 'proxy'), validation: validationView(ctx), time: ctx.live.clock.status() };
}

/**
 * An update names what it changes; an update that does not say `enabled` turns the section on
 * (configuring latency is asking for it). Returns what changed, for the log line.
 */
async function applySection(ctx: AdminContext, section: Section, patch: unknown): Promise<string> {
  const live = ctx.live;
  if (section === 'latency') {
    const change = checkLatency(patch, 'latency');
    await live.setLatency({ ...live.latency, enabled: true, ...change });
  } else if (section === 'faults') {
    const change = checkFaults(patch, 'faults');
    await live.setFaults({ ...live.faults, enabled: true, ...change });
  } else {
    const change = checkProxy(patch, 'proxy');
    // a page that sends back the upstream it was shown, password [redacted], keeps the real one
    if (change.upstream_url === proxyView(live.proxy).upstream_url) delete change.upstream_url;
    const next = { ...live.proxy, enabled: true, ...change };
    if (next.enabled && next.upstream_url === null) throw new AdminError(400, 'proxy: upstream_url is needed to enable the proxy (send {"upstream_url": "http://host:port"})');
    await live.setProxy(next);
  }
  return section;
}

async function applyValidation(ctx: AdminContext, patch: unknown): Promise<ValidationOptions> {
  const engine = serversOf(ctx.registry).engine();
  if (engine === undefined) throw new AdminError(409, 'no HTTP mock server runs in this process, so there is no validation to change');
  const { skip_admin_validation: _ignored, ...change } = checkValidation(patch, 'validation');
  const next = { ...engine.validationOptions, ...change };
  await engine.setValidation(next);
  return next;
}

/**
 * POST /__mock/config/<section>: `{config_type, data}` where config_type must name the section,
 * or the section's fields flat.
 */
function sectionUpdate(section: Section): (call: AdminCall) => Promise<ReturnType<typeof ok>> {
  return async (call) => {
    const body = call.json();
    let patch = body;
    if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'config_type' in body) {
      const { config_type, data } = body as { config_type: unknown; data?: unknown };
      if (config_type !== section) throw new AdminError(400, `Invalid config type: ${JSON.stringify(config_type)} (this endpoint takes config_type "${section}")`);
      patch = data ?? {};
    }
    await applySection(call.ctx, section, patch);
    const shown = sectionView(call.ctx, section);
    call.ctx.logger.info({ [section]: shown }, `admin: ${section} configuration changed`);
    return ok({ message: `${section} configuration updated`, [section]: shown });
  };
}

export const configRoutes: AdminRoute[] = [
  { method: 'GET', path: 'config', handler: ({ ctx }) => ok(configView(ctx)) },
  {
    method: 'POST',
    path: 'config',
    handler: async (call) => {
      const body = checkConfig(call.json(), 'config');
      // check every section before applying any, so a bad one changes nothing
      if (body.latency !== undefined) checkLatency(body.latency, 'latency');
      if (body.faults !== undefined) checkFaults(body.faults, 'faults');
      if (body.proxy !== undefined) checkProxy(body.proxy, 'proxy');
      if (body.validation !== undefined) checkValidation(body.validation, 'validation');
      const changed: string[] = [];
      for (const section of ['latency', 'faults', 'proxy'] as const) if (body[section] !== undefined) changed.push(await applySection(call.ctx, section, body[section]));
      if (body.validation !== undefined) {
        await applyValidation(call.ctx, body.validation);
        changed.push('validation');
      }
      call.ctx.logger.info({ changed }, 'admin: runtime configuration changed');
      return ok({ message: `updated ${changed.join(', ')}`, config: configView(call.ctx) });
    },
  },
  { method: 'POST', path: 'config/latency', handler: sectionUpdate('latency') },
  { method: 'POST', path: 'config/faults', handler: sectionUpdate('faults') },
  { method: 'POST', path: 'config/proxy', handler: sectionUpdate('proxy') },
  { method: 'GET', path: 'validation', handler: ({ ctx }) => ok(validationView(ctx)) },
  {
    method: 'POST',
    path: 'validation',
    handler: async (call) => {
      const next = await applyValidation(call.ctx, call.json() ?? {});
      call.ctx.logger.info({ validation: next }, 'admin: validation changed');
      return ok({ message: `validation mode is ${next.mode}`, validation: { ...next, skip_admin_validation: true } });
    },
  },
];
