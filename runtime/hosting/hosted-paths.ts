import { HOSTED_PREFIX } from './plans.js';

/** What a path under the hosted prefix names. */
export type HostedPath =
  | { kind: 'collection' }
  | { kind: 'tenant'; id: string }
  /** An admin request of a tenant, written as the tenant's own admin API reads it (`/__mock/overrides`). */
  | { kind: 'admin'; id: string; path: string }
  /** A request of a tenant's mocked API, at its own path (`/pets/1`). */
  | { kind: 'api'; id: string; path: string };

const PREFIX_SLASH = `${HOSTED_PREFIX}/`;

/**
 * The URL scheme of hosted mode (docs/hosting.md): `/api/v1/hosted-mocks` (the tenants),
 * `/{id}` (one), `/{id}/overrides` (the spec's override rules), `/{id}/users[/{name}]` (its keys),
 * `/{id}/__mock/…` (its admin API), and every other `/{id}/…` its mocked API.
 */
export function hostedPath(path: string): HostedPath | undefined {
  if (path === HOSTED_PREFIX || path === PREFIX_SLASH) return { kind: 'collection' };
  if (!path.startsWith(PREFIX_SLASH)) return undefined;
  const rest = path.slice(PREFIX_SLASH.length);
  const slash = rest.indexOf('/');
  const id = slash < 0 ? rest : rest.slice(0, slash);
  if (slash < 0) return { kind: 'tenant', id };
  const below = rest.slice(slash);
  if (below === '/overrides') return { kind: 'admin', id, path: '/__mock/overrides' };
  if (below === '/users' || below.startsWith('/users/')) return { kind: 'admin', id, path: `/__mock/auth${below}` };
  if (below === '/__mock' || below.startsWith('/__mock/')) return { kind: 'admin', id, path: below };
  return { kind: 'api', id, path: below };
}

/** The control paths as uWS patterns: everything but a tenant's mocked API. */
export const HOSTED_PATTERNS: readonly string[] = [
  HOSTED_PREFIX,
  PREFIX_SLASH,
  `${PREFIX_SLASH}:id`,
  `${PREFIX_SLASH}:id/overrides`,
  `${PREFIX_SLASH}:id/users`,
  `${PREFIX_SLASH}:id/users/:name`,
  `${PREFIX_SLASH}:id/__mock`,
  `${PREFIX_SLASH}:id/__mock/*`,
];

export const isHostedControl = (path: string): boolean => {
  const parsed = hostedPath(path);
  return parsed !== undefined && parsed.kind !== 'api';
};
