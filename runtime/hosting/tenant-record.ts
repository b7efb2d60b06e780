import type { Role } from '../control/auth/index.js';

/** A key of a hosted mock: who holds it is known by its name and role; the key itself is kept as its SHA-256 only. */
export interface TenantKey {
  name: string;
  role: Role;
  /** SHA-256 of the key, hex. */
  digest: string;
  created_at: string;
}

/** Where a hosted mock's API description comes from: a file of the host's project (tenancy.tenants), or the text a write uploaded. */
export type TenantSource = { file: string } | { document: string; format: 'json' | 'yaml' };

/** One hosted mock as the `hosted-mocks` store holds it (every instance sharing the store serves it). */
export interface TenantRecord {
  id: string;
  plan: string;
  description: string | null;
  created_at: string;
  source: TenantSource;
  keys: TenantKey[];
  /** Counts changes of the source or the plan: an instance holding an older one builds and opens the mock again. */
  revision: number;
}

/** Ids are one path segment, readable in URLs and folder names. */
export const TENANT_ID = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** What a client may see of a hosted mock: never the description's text, never a key's digest. */
export function tenantView(record: TenantRecord, baseUrl: string): Record<string, unknown> {
  return {
    id: record.id,
    plan: record.plan,
    description: record.description,
    created_at: record.created_at,
    source: 'file' in record.source ? 'mock.yaml' : 'uploaded',
    revision: record.revision,
    keys: record.keys.map(({ name, role, created_at }) => ({ name, role, created_at })),
    url: `${baseUrl}/${record.id}`,
    admin_url: `${baseUrl}/${record.id}/__mock`,
  };
}
