import { checkProfile, checkRouteChaos, ChaosLimitError, ChaosSettingsError, type ChaosProfile, type ChaosState, type RouteChaos } from '../../../chain/chaos/index.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok, plain } from '../envelope.js';
import type { AdminCall, AdminRoute } from '../router.js';
import { serversOf } from '../server-control.js';

/**
 * Runs a change of the chaos state, answering once the store holds it; its refusals are the
 * caller's mistake (400, every problem named), or a limit reached: 409 for one profile too many,
 * 413 for one too large.
 */
async function change<T>(action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (e) {
    if (e instanceof ChaosLimitError) throw new AdminError(e.limit === 'count' ? 409 : 413, e.message);
    if (e instanceof ChaosSettingsError) throw new AdminError(400, e.message);
    throw e;
  }
}

/** The body of a settings update: the fields to change, as a JSON object. */
function patchOf(call: AdminCall): unknown {
  const body = call.json();
  if (body === undefined) throw new AdminError(400, `${call.req.method} ${call.req.path} takes the settings to change as a JSON object, e.g. {"enabled": true}`);
  return body;
}

function profileOf(chaos: ChaosState, name: string): ChaosProfile {
  const profile = chaos.profile(name);
  if (profile === undefined) throw new AdminError(404, `no chaos profile "${name}" (GET /__mock/api/chaos/profiles lists them)`);
  return profile;
}

/** A profile document from a request body (POST profiles, profiles/import), checked as mock.yaml's profiles are. */
function profileFrom(body: unknown): ChaosProfile {
  const problems = checkProfile(body, '');
  if (problems.length > 0) throw new AdminError(400, problems.join('; '));
  const { name, description, tags, chaos_config } = body as ChaosProfile;
  return { name, description: description ?? '', tags: tags ?? [], builtin: false, chaos_config };
}

async function stats(ctx: AdminContext): Promise<Record<string, unknown>> {
  const { chaos } = ctx.live;
  const { machines } = chaos;
  return {
    ...chaos.counters.snapshot(),
    rate_limit_violations: { ...chaos.violations },
    circuit_breaker: { enabled: chaos.active('circuit_breaker'), ...(await machines.breaker.snapshot()) },
    bulkhead: { enabled: chaos.active('bulkhead'), active: machines.bulkhead.active, queued: machines.bulkhead.queued },
    active_profile: chaos.activeProfile,
  };
}

/** The route a route-chaos request names: a key of the served build (`GET /v1/pets/{petId}`). */
function routeKey(ctx: AdminContext, value: unknown): string {
  const routes = serversOf(ctx.registry).engine()?.routes ?? [];
  if (typeof value !== 'string' || !routes.some((r) => r.key === value)) {
    const sample = routes[0]?.key ?? 'GET /v1/pets/{petId}';
    throw new AdminError(400, `route: expected the key of a served route such as "${sample}" (GET /__mock/api/routes lists them), got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The route's chaos from a route-chaos body, checked as mock.yaml's core.routes[] are. */
function routeChaosFrom(body: Record<string, unknown>): RouteChaos {
  const { latency, fault_injection } = body as RouteChaos;
  const problems = checkRouteChaos({ latency, fault_injection }, '');
  if (problems.length > 0) throw new AdminError(400, problems.join('; '));
  return { ...(latency === undefined ? {} : { latency }), ...(fault_injection === undefined ? {} : { fault_injection }) };
}

async function setRouteChaos(call: AdminCall) {
  const body = call.json();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new AdminError(400, 'the body must be {"route": "GET /path", "latency": {…}, "fault_injection": {…}}');
  const record = body as Record<string, unknown>;
  const key = routeKey(call.ctx, record.route);
  await call.ctx.live.chaos.setRouteChaos(key, routeChaosFrom(record));
  return ok(call.ctx.live.chaos.routeChaosList());
}

async function clearRouteChaos(call: AdminCall) {
  const body = call.json() as { route?: unknown } | undefined;
  const key = routeKey(call.ctx, call.query.get('route') ?? body?.route);
  await call.ctx.live.chaos.setRouteChaos(key, null);
  return ok(call.ctx.live.chaos.routeChaosList());
}

/** The spec's Chaos API (/api/chaos/…, also under /__mock/api/chaos/…) and /__mock/api/route-chaos. */
export const chaosRoutes: AdminRoute[] = [
  { method: 'GET', path: 'chaos/metrics/latency', handler: ({ ctx }) => ok({ samples: ctx.live.chaos.latency.samples() }) },
  { method: 'GET', path: 'chaos/metrics/latency/stats', handler: ({ ctx }) => ok(ctx.live.chaos.latency.stats()) },
  { method: 'GET', path: 'chaos/stats', handler: async ({ ctx }) => ok(await stats(ctx)) },
  { method: 'POST', path: 'chaos/stats/reset', handler: async ({ ctx }) => (ctx.live.chaos.resetStats(), ok(await stats(ctx))) },
  { method: 'GET', path: 'chaos/config', handler: ({ ctx }) => ok({ ...ctx.live.chaos.settings, active_profile: ctx.live.chaos.activeProfile }) },
  { method: 'PUT', path: 'chaos/config', handler: async (call) => ok(await change(() => call.ctx.live.chaos.update(patchOf(call), 'chaos'))) },
  { method: 'POST', path: 'chaos/config/reset', handler: async ({ ctx }) => ok(await ctx.live.chaos.reset()) },
  {
    method: 'PUT',
    path: 'chaos/config/faults',
    handler: async (call) => ok((await change(() => call.ctx.live.chaos.update({ fault_injection: patchOf(call) }, 'chaos'))).fault_injection),
  },
  { method: 'GET', path: 'chaos/profiles', handler: ({ ctx }) => ok(ctx.live.chaos.profiles()) },
  {
    method: 'POST',
    path: 'chaos/profiles',
    handler: async (call) => {
      const profile = profileFrom(call.json());
      if (call.ctx.live.chaos.profile(profile.name) !== undefined) throw new AdminError(409, `chaos profile "${profile.name}" exists; delete it first or import to replace a custom one`);
      await change(() => call.ctx.live.chaos.saveProfile(profile));
      return ok(call.ctx.live.chaos.profile(profile.name), 201);
    },
  },
  {
    method: 'POST',
    path: 'chaos/profiles/import',
    handler: async (call) => {
      const profile = profileFrom(call.json());
      await change(() => call.ctx.live.chaos.saveProfile(profile));
      return ok(call.ctx.live.chaos.profile(profile.name), 201);
    },
  },
  { method: 'GET', path: 'chaos/profiles/{name}', handler: (call) => ok(profileOf(call.ctx.live.chaos, call.params.name)) },
  {
    method: 'DELETE',
    path: 'chaos/profiles/{name}',
    handler: async (call) => {
      const removed = await change(() => call.ctx.live.chaos.deleteProfile(call.params.name));
      if (!removed) throw new AdminError(404, `no custom chaos profile "${call.params.name}"`);
      return ok({ deleted: call.params.name });
    },
  },
  {
    method: 'POST',
    path: 'chaos/profiles/{name}/apply',
    handler: async (call) => {
      const profile = profileOf(call.ctx.live.chaos, call.params.name);
      await change(() => call.ctx.live.applyChaosProfile(profile));
      call.ctx.logger.info({ profile: profile.name }, `chaos profile ${profile.name} applied`);
      return ok({ applied: profile.name, settings: call.ctx.live.chaos.settings, latency: call.ctx.live.latency });
    },
  },
  {
    method: 'GET',
    path: 'chaos/profiles/{name}/export',
    handler: (call) => {
      const format = call.query.get('format') ?? 'json';
      if (format !== 'json') throw new AdminError(400, `format: only json is supported, got ${JSON.stringify(format)}`);
      const { name, description, tags, chaos_config } = profileOf(call.ctx.live.chaos, call.params.name);
      const reply = plain({ name, description, tags, chaos_config });
      reply.headers.push(['content-disposition', `attachment; filename="${name}.chaos.json"`]);
      return reply;
    },
  },
  { method: 'GET', path: 'route-chaos', handler: ({ ctx }) => ok(ctx.live.chaos.routeChaosList()) },
  { method: 'PUT', path: 'route-chaos', handler: setRouteChaos },
  { method: 'POST', path: 'route-chaos', handler: setRouteChaos },
  { method: 'DELETE', path: 'route-chaos', handler: clearRouteChaos },
];
