import { ROLES, type Role } from './types.js';

/** Who may call an endpoint when JWT auth is on: anyone, any logged-in user, or this role and stronger ones. */
export type Access = 'open' | 'user' | Role;

interface Permission {
  /** An endpoint name; `name/*` covers everything below `name`, `*` covers everything. */
  endpoint: string;
  /** GET, HEAD and OPTIONS. */
  read: Access;
  /** Every other method. */
  write: Access;
}

/** The first matching row decides. Viewers never write: no row grants writes to them. */
export const PERMISSIONS: readonly Permission[] = [
  { endpoint: 'auth/login', read: 'open', write: 'open' },
  { endpoint: 'auth/refresh', read: 'open', write: 'open' },
  { endpoint: 'auth/logout', read: 'open', write: 'open' },
  { endpoint: 'auth/me', read: 'user', write: 'admin' },
  { endpoint: 'auth/users', read: 'admin', write: 'admin' },
  { endpoint: 'auth/users/*', read: 'admin', write: 'admin' },
  { endpoint: 'mocks', read: 'open', write: 'editor' },
  { endpoint: 'mocks/*', read: 'open', write: 'editor' },
  { endpoint: 'fixtures', read: 'open', write: 'editor' },
  { endpoint: 'fixtures/*', read: 'open', write: 'editor' },
  { endpoint: 'overrides', read: 'open', write: 'editor' },
  { endpoint: 'smoke/*', read: 'open', write: 'editor' },
  { endpoint: 'recorder/*', read: 'open', write: 'editor' },
  { endpoint: 'state', read: 'open', write: 'editor' },
  { endpoint: 'state/*', read: 'open', write: 'editor' },
  { endpoint: 'contract-diff/*', read: 'open', write: 'editor' },
  { endpoint: 'webhooks/*', read: 'open', write: 'editor' },
  { endpoint: '*', read: 'open', write: 'admin' },
];

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isReadMethod = (method: string): boolean => READ_METHODS.has(method.toUpperCase());

function matches(pattern: string, endpoint: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('/*')) return endpoint.startsWith(pattern.slice(0, -1));
  return pattern === endpoint;
}

export function accessFor(method: string, endpoint: string): Access {
  // The '*' row always matches, so find never comes back empty.
  const row = PERMISSIONS.find((p) => matches(p.endpoint, endpoint)) as Permission;
  return isReadMethod(method) ? row.read : row.write;
}

/** The roles a role-gated endpoint admits, weakest first. */
export const rolesAtLeast = (role: Role): Role[] => ROLES.slice(ROLES.indexOf(role));

export const roleAllows = (role: Role, needed: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(needed);
