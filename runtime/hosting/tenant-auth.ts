import { MANAGEMENT_TOKEN_HEADER } from '../../common/admin-credentials.js';
import { accessFor, roleAllows, ROLES, type Auth, type AuthDecision, type AuthRequest, type AuthResult, type Role } from '../control/auth/index.js';
import { identify, newKey } from './keys.js';
import { allows, permissionFor, quotaOf, type NamedPlan } from './plans.js';
import type { TenantKey, TenantRecord } from './tenant-record.js';

/** What a hosted mock's authorisation reads and changes of its tenant. */
export interface TenantAccess {
  readonly id: string;
  record(): TenantRecord;
  plan(): NamedPlan;
  /** The host's management token, as its SHA-256. */
  readonly operator: Buffer;
  /** Changes the tenant's keys in the `hosted-mocks` store (every instance sees them). */
  updateKeys(change: (keys: TenantKey[]) => TenantKey[]): Promise<void>;
}

const KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const header = (headers: AuthRequest['headers'], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The admin API of a hosted mock (docs/hosting.md): every request, reads included, carries
 * X-Mock-Management-Token with the host's management token or one of the tenant's keys (a tenant
 * reads no other tenant's mocks, logs or state); the key's role decides as the admin roles do
 * (viewer reads, editor changes the mock, admin manages keys); the plan's permissions gate each
 * action. The tenant's users are its keys (auth/users); there are no logins.
 */
export class TenantAuth implements Auth {
  readonly enabled = true;
  readonly seededDevUsers = [];

  constructor(private readonly tenant: TenantAccess) {}

  async authorize({ method, endpoint, headers }: AuthRequest): Promise<AuthDecision> {
    const { id } = this.tenant;
    const given = header(headers, MANAGEMENT_TOKEN_HEADER);
    const who = given === undefined || given === '' ? undefined : identify(given, this.tenant.operator, this.tenant.record().keys);
    if (who === undefined) {
      return { ok: false, status: 401, error: `hosted mock "${id}": send X-Mock-Management-Token with one of its keys (or the host's management token) on every request to its admin API` };
    }
    const access = accessFor(method, endpoint);
    if (access !== 'open' && access !== 'user' && !roleAllows(who.role, access)) {
      return { ok: false, status: 403, error: `hosted mock "${id}": the key ${who.name} has the role ${who.role}, and ${method} ${endpoint} needs ${access}` };
    }
    const permission = permissionFor(method, endpoint);
    const plan = this.tenant.plan();
    if (permission !== undefined && !allows(plan, permission)) {
      return { ok: false, status: 403, error: `hosted mock "${id}": its plan ${plan.name} does not allow ${permission} (tenancy.plans.${plan.name}.permissions), which ${method} ${endpoint} needs` };
    }
    return { ok: true, user: { username: who.name, role: who.role } };
  }

  async listUsers(): Promise<AuthResult> {
    return { status: 200, data: this.tenant.record().keys.map(({ name, role, created_at }) => ({ username: name, role, created_at })) };
  }

  /** `{username, role}`: a new key, shown once in the answer. */
  async createUser(body: unknown): Promise<AuthResult> {
    const { username, role } = (body ?? {}) as { username?: unknown; role?: unknown };
    if (typeof username !== 'string' || !KEY_NAME.test(username)) return { status: 400, error: 'username: a name of 1 to 64 letters, digits, dots, dashes or underscores, for the new key' };
    if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) return { status: 400, error: `role: one of ${ROLES.join(', ')}` };
    const plan = this.tenant.plan();
    const max = quotaOf(plan, 'max_users');
    let refused: AuthResult | undefined;
    const { key, digest } = newKey();
    await this.tenant.updateKeys((keys) => {
      if (keys.some((k) => k.name === username)) refused = { status: 409, error: `hosted mock "${this.tenant.id}" has a key named ${username} already: delete it first, or choose another name` };
      else if (max !== undefined && keys.length >= max) {
        refused = {
          status: 403,
          error: `hosted mock "${this.tenant.id}" holds ${keys.length} keys, the most its plan ${plan.name} allows (max_users ${max}); delete one, or move it to a larger plan`,
        };
      }
      return refused === undefined ? [...keys, { name: username, role: role as Role, digest, created_at: new Date().toISOString() }] : keys;
    });
    return refused ?? { status: 201, data: { username, role, key, note: 'the key is shown this once: send it as X-Mock-Management-Token' } };
  }

  async deleteUser(username: string): Promise<AuthResult> {
    let found = false;
    await this.tenant.updateKeys((keys) => {
      found = keys.some((k) => k.name === username);
      return keys.filter((k) => k.name !== username);
    });
    return found ? { status: 200, data: { deleted: username } } : { status: 404, error: `hosted mock "${this.tenant.id}" has no key named ${username}` };
  }

  async login(): Promise<AuthResult> {
    return this.noLogins();
  }

  async refresh(): Promise<AuthResult> {
    return this.noLogins();
  }

  async logout(): Promise<AuthResult> {
    return this.noLogins();
  }

  async me(): Promise<AuthResult> {
    return this.noLogins();
  }

  private noLogins(): AuthResult {
    return { status: 404, error: `hosted mock "${this.tenant.id}" has no logins: its keys (auth/users) go in X-Mock-Management-Token` };
  }
}
