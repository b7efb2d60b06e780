export { Hosting, type HostingOptions } from './hosting.js';
export { hostedSurface } from './surface.js';
export { HOSTED_PREFIX, PERMISSIONS, QUOTAS, type Permission, type Plan, type Quota } from './plans.js';
export type { HostedSurface, TenantMock, TenantMockSpec } from './tenant-mock-types.js';
