import { checkLatencySpec, ChaosSettingsError, latencySpec, type ChaosProfile, type ChaosState, type RouteChaos } from '../../chaos/index.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok, plain } from '../envelope.js';
import type { AdminCall, AdminRoute } from '../router.js';

const PROFILE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Runs a change of the chaos state; its refusals are the caller's mistake (400, every problem named). */
function change<T>(action: () => T): T {
  try {
    return action();
  } catch (e) {
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

/** A profile document from a request body (POST profiles, profiles/import). */
function profileFrom(body: unknown): ChaosProfile {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new AdminError(400, 'the body must be a chaos profile: {"name": …, "chaos_config": {…}}');
  const { name, description, tags, chaos_config } = body as Record<string, unknown>;
  if (typeof name !== 'string' || !PROFILE_NAME.test(name)) throw new AdminError(400, `name: expected letters, digits, _ . - (at most 64), got ${JSON.stringify(name)}`);
  if (description !== undefined && typeof description !== 'string') throw new AdminError(400, 'description: expected a string');
  if (tags !== undefined && !(Array.isArray(tags) && tags.every((t) => typeof t === 'string'))) throw new AdminError(400, 'tags: expected a list of strings');
  if (chaos_config === null || typeof chaos_config !== 'object' || Array.isArray(chaos_config)) throw new AdminError(400, 'chaos_config: expected an object');
  const unknown = Object.keys(chaos_config).filter((k) => !['latency', 'fault_injection', 'traffic_shaping', 'rate_limit'].includes(k));
  if (unknown.length > 0) throw new AdminError(400, `chaos_config.${unknown[0]}: unknown setting (expected latency, fault_injection, traffic_shaping, rate_limit)`);
  const latency = (chaos_config as { latency?: unknown }).latency;
  if (latency !== undefined) checkProfileLatency(latency);
  return { name, description: description ?? '', tags: (tags as string[] | undefined) ?? [], builtin: false, chaos_config: chaos_config as ChaosProfile['chaos_config'] };
}

function checkProfileLatency(latency: unknown): void {
  const l = latency as Record<string, unknown>;
  if (latency === null || typeof latency !== 'object' || typeof l.enabled !== 'boolean') throw new AdminError(400, 'chaos_config.latency: expected {enabled, fixed_delay_ms, jitter_ms, probability}');
  for (const key of ['fixed_delay_ms', 'jitter_ms'] as const) {
    if (l[key] !== undefined && !(typeof l[key] === 'number' && (l[key] as number) >= 0)) throw new AdminError(400, `chaos_config.latency.${key}: expected a number >= 0`);
  }
  if (l.probability !== undefined && !(typeof l.probability === 'number' && l.probability >= 0 && l.probability <= 1)) {
    throw new AdminError(400, 'chaos_config.latency.probability: expected a probability from 0.0 to 1.0');
  }
}

function stats(ctx: AdminContext): Record<string, unknown> {
  const { chaos } = ctx.live;
  const { machines } = chaos;
  return {
    ...chaos.counters.snapshot(),
    rate_limit_violations: { ...chaos.violations },
    circuit_breaker: { enabled: chaos.active('circuit_breaker'), ...machines.breaker.snapshot() },
    bulkhead: { enabled: chaos.active('bulkhead'), active: machines.bulkhead.active, queued: machines.bulkhead.queued },
    active_profile: chaos.activeProfile,
  };
}

/** The route a route-chaos request names: a key of the served build (`GET /v1/pets/{petId}`). */
function routeKey(ctx: AdminContext, value: unknown): string {
  const routes = ctx.servers.engine()?.routes ?? [];
  if (typeof value !== 'string' || !routes.some((r) => r.key === value)) {
    const sample = routes[0]?.key ?? 'GET /v1/pets/{petId}';
    throw new AdminError(400, `route: expected the key of a served route such as "${sample}" (GET /__mock/api/routes lists them), got ${JSON.stringify(value)}`);
  }
  return value;
}

function routeChaosFrom(body: Record<string, unknown>): RouteChaos {
  const chaos: RouteChaos = {};
  if (body.latency !== undefined) {
    const latency = body.latency as RouteChaos['latency'];
    if (latency === null || typeof latency !== 'object' || typeof latency.enabled !== 'boolean') throw new AdminError(400, 'latency: expected {enabled, probability, distribution, mean_ms, std_dev_ms, p50_ms, p99_ms, jitter_percent}');
    const problems = checkLatencySpec(latencySpec(latency), 'latency');
    if (problems.length > 0) throw new AdminError(400, problems.join('; '));
    chaos.latency = latency;
  }
  if (body.fault_injection !== undefined) {
    const faults = body.fault_injection as RouteChaos['fault_injection'];
    if (faults === null || typeof faults !== 'object' || typeof faults.enabled !== 'boolean') throw new AdminError(400, 'fault_injection: expected {enabled, probability, fault_types}');
    if (faults.probability !== undefined && !(faults.probability >= 0 && faults.probability <= 1)) throw new AdminError(400, 'fault_injection.probability: expected a probability from 0.0 to 1.0');
    for (const [i, fault] of (faults.fault_types ?? []).entries()) {
      if (!['http_error', 'timeout', 'connection_error'].includes((fault as { type?: string }).type ?? '')) {
        throw new AdminError(400, `fault_injection.fault_types[${i}].type: expected http_error, timeout or connection_error`);
      }
    }
    chaos.fault_injection = faults;
  }
  return chaos;
}

function setRouteChaos(call: AdminCall) {
  const body = call.json();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new AdminError(400, 'the body must be {"route": "GET /path", "latency": {…}, "fault_injection": {…}}');
  const record = body as Record<string, unknown>;
  const key = routeKey(call.ctx, record.route);
  call.ctx.live.chaos.setRouteChaos(key, routeChaosFrom(record));
  return ok(call.ctx.live.chaos.routeChaosList());
}

function clearRouteChaos(call: AdminCall) {
  const body = call.json() as { route?: unknown } | undefined;
  const key = routeKey(call.ctx, call.query.get('route') ?? body?.route);
  call.ctx.live.chaos.setRouteChaos(key, null);
  return ok(call.ctx.live.chaos.routeChaosList());
}

/** The spec's Chaos API (/api/chaos/…, also under /__mock/api/chaos/…) and /__mock/api/route-chaos. */
export const chaosRoutes: AdminRoute[] = [
  { method: 'GET', path: 'chaos/metrics/latency', handler: ({ ctx }) => ok({ samples: ctx.live.chaos.latency.samples() }) },
  { method: 'GET', path: 'chaos/metrics/latency/stats', handler: ({ ctx }) => ok(ctx.live.chaos.latency.stats()) },
  { method: 'GET', path: 'chaos/stats', handler: ({ ctx }) => ok(stats(ctx)) },
  { method: 'POST', path: 'chaos/stats/reset', handler: ({ ctx }) => (ctx.live.chaos.resetStats(), ok(stats(ctx))) },
  { method: 'GET', path: 'chaos/config', handler: ({ ctx }) => ok({ ...ctx.live.chaos.settings, active_profile: ctx.live.chaos.activeProfile }) },
  { method: 'PUT', path: 'chaos/config', handler: (call) => ok(change(() => call.ctx.live.chaos.update(patchOf(call), 'chaos'))) },
  { method: 'POST', path: 'chaos/config/reset', handler: ({ ctx }) => ok(ctx.live.chaos.reset()) },
  {
    method: 'PUT',
    path: 'chaos/config/faults',
    handler: (call) => ok(change(() => call.ctx.live.chaos.update({ fault_injection: patchOf(call) }, 'chaos')).fault_injection),
  },
  { method: 'GET', path: 'chaos/profiles', handler: ({ ctx }) => ok(ctx.live.chaos.profiles()) },
  {
    method: 'POST',
    path: 'chaos/profiles',
    handler: (call) => {
      const profile = profileFrom(call.json());
      if (call.ctx.live.chaos.profile(profile.name) !== undefined) throw new AdminError(409, `chaos profile "${profile.name}" exists; delete it first or import to replace a custom one`);
      change(() => call.ctx.live.chaos.saveProfile(profile));
      return ok(call.ctx.live.chaos.profile(profile.name), 201);
    },
  },
  {
    method: 'POST',
    path: 'chaos/profiles/import',
    handler: (call) => {
      const profile = profileFrom(call.json());
      change(() => call.ctx.live.chaos.saveProfile(profile));
      return ok(call.ctx.live.chaos.profile(profile.name), 201);
    },
  },
  { method: 'GET', path: 'chaos/profiles/{name}', handler: (call) => ok(profileOf(call.ctx.live.chaos, call.params.name)) },
  {
    method: 'DELETE',
    path: 'chaos/profiles/{name}',
    handler: (call) => {
      const removed = change(() => call.ctx.live.chaos.deleteProfile(call.params.name));
      if (!removed) throw new AdminError(404, `no custom chaos profile "${call.params.name}"`);
      return ok({ deleted: call.params.name });
    },
  },
  {
    method: 'POST',
    path: 'chaos/profiles/{name}/apply',
    handler: (call) => {
      const profile = profileOf(call.ctx.live.chaos, call.params.name);
      change(() => call.ctx.live.applyChaosProfile(profile));
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
