import { MANAGEMENT_TOKEN_HEADER } from '../../common/admin-credentials.js';
import { fail, ok, refuseForeign, type AccessPolicy, type ControlHandler, type ControlRequest, type ControlResponse } from '../control/admin/index.js';
import { StoreRefusal, StoreUnavailable } from '../store/index.js';
import { identify, newKey } from './keys.js';
import { hostedPath } from './hosted-paths.js';
import { HOSTED_PREFIX, allows, quotaOf, sectionPermissions } from './plans.js';
import { quotaRefusal } from './quota-guard.js';
import { TENANT_ID, tenantView, type TenantRecord, type TenantSource } from './tenant-record.js';
import type { Built, Hosting } from './hosting.js';

const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json$/;

/** A hosted write refused before anything changes. */
class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function jsonOf(req: ControlRequest): unknown {
  if (req.body === undefined || req.body.length === 0) return undefined;
  try {
    return JSON.parse(req.body.toString('utf8'));
  } catch (e) {
    throw new Refused(400, `the body is not valid JSON (${(e as Error).message}); send Content-Type: application/json with a JSON body`);
  }
}

const givenToken = (req: ControlRequest): string | undefined => {
  const value = req.headers[MANAGEMENT_TOKEN_HEADER];
  return value === undefined || value === '' ? undefined : value;
};

/**
 * The control surface of hosted mode: the tenants themselves (`/api/v1/hosted-mocks`, `/{id}`:
 * list, create, read, change, delete, with the host's management token; a tenant's key reads its
 * own), and each tenant's admin API (`/{id}/__mock/…`, `/{id}/overrides`, `/{id}/users`), handed to
 * the tenant's own with the plan's count quotas checked first. The Host and Origin guards of the
 * admin API come first; every answer is the admin API's envelope.
 */
export function hostedControl(hosting: Hosting, access: AccessPolicy): ControlHandler {
  return async (req) => {
    const foreign = refuseForeign(access, false, req);
    if (foreign !== undefined) return foreign;
    const target = hostedPath(req.path);
    if (target === undefined || target.kind === 'api') return fail(404, `no hosted-mode endpoint ${req.method} ${req.path}`);
    if (req.oversized !== undefined) return fail(413, `request body exceeds ${req.oversized} bytes`);
    try {
      if (target.kind === 'admin') return await tenantAdmin(hosting, target.id, target.path, req);
      if (!['GET', 'HEAD'].includes(req.method)) {
        const type = req.headers['content-type'];
        if (req.body !== undefined && req.body.length > 0 && (type === undefined || !JSON_MEDIA.test(type.split(';')[0].trim().toLowerCase()))) {
          return fail(415, `${req.method} ${req.path} takes a JSON body: send it with Content-Type: application/json`);
        }
      }
      if (target.kind === 'collection') return await collection(hosting, req);
      return await oneTenant(hosting, target.id, req);
    } catch (e) {
      if (e instanceof Refused) return fail(e.status, e.message);
      if (e instanceof StoreUnavailable) return fail(503, `${e.message}; the change was not made, try again once the store is back`);
      if (e instanceof StoreRefusal) return fail(e.full ? 409 : 413, e.message);
      hosting.options.logger.error({ err: e, method: req.method, path: req.path }, 'hosted-mode request failed');
      return fail(500, `hosted mode failed to answer ${req.method} ${req.path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}

/** Only the host's management token, compared in constant time. */
function requireOperator(hosting: Hosting, req: ControlRequest): void {
  const given = givenToken(req);
  if (given === undefined || identify(given, hosting.operator, [])?.operator !== true) {
    throw new Refused(
      401,
      `missing or wrong ${MANAGEMENT_TOKEN_HEADER} header: hosted mode's tenants are listed, created, changed and deleted with the host's management token (admin.management_token)`,
    );
  }
}

async function collection(hosting: Hosting, req: ControlRequest): Promise<ControlResponse> {
  requireOperator(hosting, req);
  if (req.method === 'GET' || req.method === 'HEAD') return ok(hosting.list().map((record) => tenantView(record, HOSTED_PREFIX)));
  if (req.method !== 'POST') return notAllowed(req, 'GET, POST');
  const body = jsonOf(req) as { id?: unknown; plan?: unknown; description?: unknown; spec?: unknown } | undefined;
  if (typeof body !== 'object' || body === null)
    throw new Refused(400, 'send {id, plan, spec, description?}: spec is the OpenAPI or Swagger description, as a JSON object or as its JSON or YAML text');
  const { id, plan } = body;
  if (typeof id !== 'string' || !TENANT_ID.test(id)) throw new Refused(400, 'id: 1 to 63 lower-case letters, digits and dashes (not first or last), one segment of the URL');
  checkPlan(hosting, plan);
  const source = sourceOf(body.spec);
  const description = descriptionOf(body.description);
  if ((await hosting.store.get(id)) !== undefined) throw new Refused(409, `hosted mock "${id}" exists: change it with PUT ${HOSTED_PREFIX}/${id}, or delete it first`);
  const built = await buildOrRefuse(hosting, { id, source, revision: 1 }, true);
  const owner = newKey();
  const wantsOwner = quotaOf(hosting.planOf(plan) as NonNullable<ReturnType<Hosting['planOf']>>, 'max_users') !== 0;
  const record: TenantRecord = {
    id,
    plan,
    description,
    created_at: new Date().toISOString(),
    source,
    keys: wantsOwner ? [{ name: 'owner', role: 'admin', digest: owner.digest, created_at: new Date().toISOString() }] : [],
    revision: 1,
  };
  let taken = false;
  await hosting.store.update(id, (current) => {
    taken = current !== undefined;
    return taken ? undefined : record;
  });
  if (taken) throw new Refused(409, `hosted mock "${id}" was created meanwhile: change it with PUT ${HOSTED_PREFIX}/${id}`);
  await hosting.follow(id, record, true, built);
  const view = tenantView(record, HOSTED_PREFIX);
  return ok(wantsOwner ? { ...view, key: owner.key, note: 'the owner key is shown this once: send it as X-Mock-Management-Token' } : view, 201);
}

async function oneTenant(hosting: Hosting, id: string, req: ControlRequest): Promise<ControlResponse> {
  const open = hosting.tenant(id);
  if (req.method === 'GET' || req.method === 'HEAD') {
    const given = givenToken(req);
    if (open === undefined || given === undefined || identify(given, hosting.operator, open.record.keys) === undefined) {
      // the same answer whether or not it exists, to anyone who holds no key of it
      throw new Refused(
        open === undefined && given !== undefined && identify(given, hosting.operator, []) !== undefined ? 404 : 401,
        `hosted mock "${id}": send ${MANAGEMENT_TOKEN_HEADER} with one of its keys or the host's management token`,
      );
    }
    return ok(tenantView(open.record, HOSTED_PREFIX));
  }
  requireOperator(hosting, req);
  if (open === undefined && (await hosting.store.get(id)) === undefined) throw new Refused(404, `no hosted mock "${id}"`);
  if (req.method === 'DELETE') {
    await hosting.store.delete(id);
    await hosting.follow(id, undefined);
    return ok({ deleted: id });
  }
  if (req.method !== 'PUT') return notAllowed(req, 'GET, PUT, DELETE');
  const body = (jsonOf(req) ?? {}) as { plan?: unknown; description?: unknown; spec?: unknown };
  if (body.plan !== undefined) checkPlan(hosting, body.plan);
  const source = body.spec === undefined ? undefined : sourceOf(body.spec);
  const next = (open?.record.revision ?? (await hosting.store.get(id))?.revision ?? 0) + 1;
  const built = source === undefined ? undefined : await buildOrRefuse(hosting, { id, source, revision: next });
  const updated = await hosting.store.update(id, (current) => {
    if (current === undefined) return undefined;
    const plan = typeof body.plan === 'string' ? body.plan : current.plan;
    const changed = source !== undefined || plan !== current.plan;
    return {
      ...current,
      plan,
      description: body.description === undefined ? current.description : descriptionOf(body.description),
      source: source ?? current.source,
      revision: changed ? current.revision + 1 : current.revision,
    };
  });
  if (updated === undefined) throw new Refused(404, `no hosted mock "${id}"`);
  // the build is this change's only when no other change came in between
  await hosting.follow(id, updated, true, updated.revision === next ? built : undefined);
  return ok(tenantView(updated, HOSTED_PREFIX));
}

/** A tenant's admin request: the tenant's own admin API answers it (its key, role and plan checked there), after the plan's count quotas. */
async function tenantAdmin(hosting: Hosting, id: string, path: string, req: ControlRequest): Promise<ControlResponse> {
  const open = hosting.tenant(id);
  if (open === undefined) return fail(404, `no hosted mock "${id}" (GET ${HOSTED_PREFIX} lists them, with the management token)`);
  const forwarded = { ...req, path };
  const endpoint = path
    .slice('/__mock'.length)
    .replace(/^\/+(api\/)?/, '')
    .replace(/\/+$/, '');
  const given = givenToken(req);
  // the quotas are told only to who holds a key of the tenant (the tenant's admin API answers the others)
  if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method) && given !== undefined && identify(given, hosting.operator, open.record.keys) !== undefined) {
    let body: unknown;
    const read = (): unknown => (body ??= jsonOf(req));
    const refusal = quotaRefusal(id, open.plan, open.mock.live, { method: req.method, endpoint, body: read });
    if (refusal !== undefined) return fail(403, refusal);
    const missing = endpoint === 'config' ? sectionPermissions(req.method, endpoint, read()).find((permission) => !allows(open.plan, permission)) : undefined;
    if (missing !== undefined) return fail(403, `hosted mock "${id}": its plan ${open.plan.name} does not allow ${missing} (tenancy.plans.${open.plan.name}.permissions), which a section of POST config needs`);
  }
  return open.mock.admin(forwarded);
}

function checkPlan(hosting: Hosting, plan: unknown): asserts plan is string {
  if (typeof plan !== 'string' || hosting.planOf(plan) === undefined) {
    throw new Refused(400, `plan: one of tenancy.plans (${hosting.planNames.join(', ') || 'none configured'})`);
  }
}

function sourceOf(spec: unknown): TenantSource {
  if (typeof spec === 'string' && spec.trim() !== '') return { document: spec, format: spec.trimStart().startsWith('{') ? 'json' : 'yaml' };
  if (typeof spec === 'object' && spec !== null && !Array.isArray(spec)) return { document: JSON.stringify(spec), format: 'json' };
  throw new Refused(400, 'spec: the OpenAPI or Swagger description, as a JSON object or as its JSON or YAML text');
}

function descriptionOf(description: unknown): string | null {
  if (description === undefined || description === null) return null;
  if (typeof description !== 'string' || description.length > 1000) throw new Refused(400, 'description: text of at most 1000 characters');
  return description;
}

/** `fresh`: the tenant does not exist yet, and a description that does not build leaves no folder behind. */
async function buildOrRefuse(hosting: Hosting, revision: Pick<TenantRecord, 'id' | 'source' | 'revision'>, fresh = false): Promise<Built> {
  try {
    return await hosting.build(revision);
  } catch (e) {
    if (fresh) hosting.forget(revision.id);
    throw new Refused(400, `spec: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function notAllowed(req: ControlRequest, allow: string): ControlResponse {
  const reply = fail(405, `${req.path} does not accept ${req.method} (allowed: ${allow})`);
  reply.headers.push(['allow', allow]);
  return reply;
}
