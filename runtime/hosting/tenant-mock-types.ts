import type { Dispatch, TenantQuota } from '../chain/index.js';
import type { LiveState } from '../chain/settings/index.js';
import type { ControlHandler } from '../control/admin/index.js';
import type { Auth } from '../control/auth/index.js';
import type { AdminLimits } from '../serve-options.js';
import type { StoreFactory } from '../store/index.js';

/** One hosted mock as runtime/hosting asks for it. */
export interface TenantMockSpec {
  id: string;
  /** The tenant's folder (its description, build and fixtures). */
  dir: string;
  buildDir: string;
  specPath: string;
  stores: StoreFactory;
  auth: Auth;
  /** admin.limits held to the plan's quotas (max_scenarios, max_templates, max_orchestrations). */
  limits: AdminLimits;
  quota: TenantQuota;
  /** The plan allows the proxy (can_integrate_external) and AI answers (can_use_ml_features). */
  external: boolean;
  ml: boolean;
  /** The endpoints its admin API has. */
  isTenantEndpoint(endpoint: string): boolean;
}

/** A hosted mock, served through the host's HTTP port: its requests come from the host's dispatch, its admin requests from the host's control surface. */
export interface TenantMock {
  readonly dispatch: Dispatch;
  /** Its admin API, for paths written as `/__mock/…`. */
  readonly admin: ControlHandler;
  readonly live: LiveState;
  close(): Promise<void>;
}

/**
 * Hosted mode on the HTTP mock (runtime/hosting, docs/hosting.md): under its prefix, the tenants'
 * management and admin paths are a control surface beside /__mock, and every other path goes to a
 * tenant's mocked API through the wrapped dispatch.
 */
export interface HostedSurface {
  /** The control paths as uWS route patterns (`/api/v1/hosted-mocks/:id/__mock/*`). */
  readonly patterns: readonly string[];
  /** The same paths, for the node:http adapter. */
  isControl(path: string): boolean;
  readonly handler: ControlHandler;
  /** The mock's dispatch with the tenants' requests sent to their own. */
  dispatch(own: Dispatch): Dispatch;
}
