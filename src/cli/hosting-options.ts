import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import type { MockOptions } from '../../runtime/index.js';
import { displayPath, type ResolvedConfig } from '../config/index.js';
import { buildInWorker } from './build-in-worker.js';

/** tenancy.dir, absolute already, or .mock/tenants of the project. */
const tenantsDir = ({ config, projectDir }: ResolvedConfig): string => config.tenancy?.dir ?? path.join(projectDir, '.mock', 'tenants');

/** Hosted mode is on when mock.yaml has tenancy plans. */
export const hostingWanted = ({ config }: ResolvedConfig): boolean => Object.keys(config.tenancy?.plans ?? {}).length > 0;

/**
 * A host without an API of its own still serves its tenants on the HTTP mock's port: it is given
 * an empty description (no operations), written once in the tenants' folder.
 */
export function withHostDescription(resolved: ResolvedConfig): ResolvedConfig {
  const { config } = resolved;
  if (!hostingWanted(resolved) || config.specs.length > 0) return resolved;
  const dir = tenantsDir(resolved);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'host.json');
  writeFileSync(file, `${JSON.stringify({ openapi: '3.0.3', info: { title: 'mock hosted mode', version: '1' }, paths: {} }, null, 2)}\n`);
  return { ...resolved, config: { ...config, specs: [{ path: file }] } };
}

/**
 * tenancy in mock.yaml as hosted mode's options: the management token is required (every write of
 * hosted mode needs it), each declared tenant's plan must exist and its description must be a file.
 * A tenant's description builds in a child process, as mock serve's own: an uploaded one with its
 * $refs confined to the tenant's folder, a declared one to the project.
 */
export function hostingOptions(resolved: ResolvedConfig, warn: (line: string) => void): MockOptions['hosting'] {
  if (!hostingWanted(resolved)) return undefined;
  const { config, projectDir } = resolved;
  const tenancy = config.tenancy as NonNullable<typeof config.tenancy>;
  const plans = tenancy.plans ?? {};
  const token = config.admin.management_token;
  if (token === undefined || token === '') {
    throw new MockError(
      'MOCK_ERR_TENANCY_CONFIG',
      "tenancy: hosted mode needs admin.management_token (MOCK_MANAGEMENT_TOKEN), the operator's token for every hosted write: set it to a long random value (openssl rand -base64 32)",
    );
  }
  const declared = Object.entries(tenancy.tenants ?? {}).map(([id, tenant]) => {
    if (!Object.hasOwn(plans, tenant.plan)) {
      throw new MockError('MOCK_ERR_TENANCY_CONFIG', `tenancy.tenants.${id}.plan: ${tenant.plan} is not a plan of tenancy.plans (${Object.keys(plans).join(', ')})`);
    }
    if (!statSync(tenant.spec, { throwIfNoEntry: false })?.isFile()) {
      throw new MockError('MOCK_ERR_TENANCY_CONFIG', `tenancy.tenants.${id}.spec: ${displayPath(tenant.spec)} is not a file; give the path of its OpenAPI or Swagger description`);
    }
    return { id, plan: tenant.plan, description: tenant.description, file: tenant.spec };
  });
  return {
    plans,
    declared,
    managementToken: token,
    dir: tenantsDir(resolved),
    build: async (file, dir, name) => {
      const uploaded = !path.relative(dir, file).startsWith('..');
      const cwd = uploaded ? dir : projectDir;
      const built = await buildInWorker({ specs: [{ source: path.relative(cwd, file) }], routes: [], outDir: dir, name, cwd, allowRefs: [] });
      for (const warning of built.warnings) warn(`${path.basename(dir)}: ${warning}`);
      return built.dir;
    },
  };
}
