/** The path prefix of hosted mode: the tenants, their mocked APIs and their admin APIs (docs/hosting.md). */
export const HOSTED_PREFIX = '/api/v1/hosted-mocks';

export const QUOTAS = [
  'max_scenarios',
  'max_concurrent_executions',
  'max_orchestrations',
  'max_templates',
  'max_requests_per_minute',
  'max_storage_mb',
  'max_users',
  'max_experiment_duration_secs',
] as const;

export const PERMISSIONS = [
  'can_create_scenarios',
  'can_execute_scenarios',
  'can_view_observability',
  'can_manage_resilience',
  'can_use_advanced_features',
  'can_integrate_external',
  'can_use_ml_features',
  'can_manage_users',
] as const;

export type Quota = (typeof QUOTAS)[number];
export type Permission = (typeof PERMISSIONS)[number];

/** tenancy.plans.<name>: an absent quota is unlimited, an absent permission is false. */
export interface Plan {
  quotas?: Partial<Record<Quota, number>>;
  permissions?: Partial<Record<Permission, boolean>>;
}

/** A tenant's plan with its name, as the tenant's parts read it. */
export interface NamedPlan {
  name: string;
  plan: Plan;
}

export const quotaOf = ({ plan }: NamedPlan, quota: Quota): number | undefined => plan.quotas?.[quota];

export const allows = ({ plan }: NamedPlan, permission: Permission): boolean => plan.permissions?.[permission] === true;

interface Gate {
  /** An admin endpoint name below /__mock/ (as the permissions of runtime/control/auth); `name/*` covers what is below it. */
  endpoint: string;
  /** Needed by GET and HEAD; absent: none. */
  read?: Permission;
  /** Needed by every other method (and by a GET that starts work); absent: none. */
  write?: Permission;
}

/**
 * Which permission of its plan each admin action of a hosted mock needs; the first matching row
 * decides, and an endpoint no row names needs none beyond the key's role.
 */
const GATES: readonly Gate[] = [
  { endpoint: 'auth/users', read: 'can_manage_users', write: 'can_manage_users' },
  { endpoint: 'auth/users/*', read: 'can_manage_users', write: 'can_manage_users' },
  { endpoint: 'logs', read: 'can_view_observability', write: 'can_view_observability' },
  { endpoint: 'logs/*', read: 'can_view_observability', write: 'can_view_observability' },
  { endpoint: 'metrics', read: 'can_view_observability' },
  { endpoint: 'stats', read: 'can_view_observability' },
  { endpoint: 'dashboard', read: 'can_view_observability' },
  { endpoint: 'coverage', read: 'can_view_observability' },
  { endpoint: 'unmatched', read: 'can_view_observability' },
  { endpoint: 'chaos/metrics/*', read: 'can_view_observability' },
  { endpoint: 'chaos/stats', read: 'can_view_observability' },
  { endpoint: 'mocks', write: 'can_create_scenarios' },
  { endpoint: 'mocks/*', write: 'can_create_scenarios' },
  { endpoint: 'overrides', write: 'can_create_scenarios' },
  { endpoint: 'fixtures/settings', write: 'can_integrate_external' },
  { endpoint: 'fixtures', write: 'can_create_scenarios' },
  { endpoint: 'fixtures/*', write: 'can_create_scenarios' },
  { endpoint: 'smoke', read: 'can_execute_scenarios', write: 'can_execute_scenarios' },
  { endpoint: 'smoke/*', read: 'can_execute_scenarios', write: 'can_execute_scenarios' },
  { endpoint: 'state', write: 'can_execute_scenarios' },
  { endpoint: 'state/*', write: 'can_execute_scenarios' },
  { endpoint: 'chaos/*', write: 'can_manage_resilience' },
  { endpoint: 'route-chaos', write: 'can_manage_resilience' },
  { endpoint: 'config/latency', write: 'can_manage_resilience' },
  { endpoint: 'config/faults', write: 'can_manage_resilience' },
  { endpoint: 'config/proxy', write: 'can_integrate_external' },
  { endpoint: 'config', write: 'can_use_advanced_features' },
  { endpoint: 'validation', write: 'can_use_advanced_features' },
  { endpoint: 'time', write: 'can_use_advanced_features' },
  { endpoint: 'time/*', write: 'can_use_advanced_features' },
  { endpoint: 'continuum/*', write: 'can_use_advanced_features' },
];

function matches(pattern: string, endpoint: string): boolean {
  return pattern.endsWith('/*') ? endpoint.startsWith(pattern.slice(0, -1)) : pattern === endpoint;
}

/** The permission `method` on `endpoint` needs (writes include a GET that starts work: the router passes it as POST). */
export function permissionFor(method: string, endpoint: string): Permission | undefined {
  const gate = GATES.find((g) => matches(g.endpoint, endpoint));
  if (gate === undefined) return undefined;
  return method === 'GET' || method === 'HEAD' ? gate.read : gate.write;
}

/** POST config changes several sections at once: each section it names needs what its own endpoint does. */
const CONFIG_SECTIONS: Readonly<Record<string, Permission>> = {
  latency: 'can_manage_resilience',
  faults: 'can_manage_resilience',
  proxy: 'can_integrate_external',
  validation: 'can_use_advanced_features',
};

/** The permissions a write to `endpoint` with `body` needs beyond its gate: POST config's sections. */
export function sectionPermissions(method: string, endpoint: string, body: unknown): Permission[] {
  if (method !== 'POST' || endpoint !== 'config' || typeof body !== 'object' || body === null) return [];
  return Object.keys(body).flatMap((section) => (Object.hasOwn(CONFIG_SECTIONS, section) ? [CONFIG_SECTIONS[section]] : []));
}

/**
 * The admin endpoints a hosted mock has: its own mocked API's. Left out are those of the host's
 * process and disk (env, files, servers, server-config, scenario installs), of servers a tenant
 * does not have (WebSocket, GraphQL, gRPC, the recorder database, contract-diff captures, which
 * read descriptions by path), and logins (a tenant's users are keys: auth/users).
 */
const HOST_ONLY = /^(env|files|servers|server-config|scenarios|websocket|graphql|grpc|recorder|contract-diff|auth\/(login|refresh|logout|me))(\/|$)/;

export const isTenantEndpoint = (path: string): boolean => !HOST_ONLY.test(path);
