import { hostedControl } from './hosted-api.js';
import { HOSTED_PATTERNS, isHostedControl } from './hosted-paths.js';
import type { Hosting } from './hosting.js';
import type { HostedSurface } from './tenant-mock-types.js';

/** What the HTTP mock serves of hosted mode: the control paths (with the admin API's Host and Origin rules) and the tenants' requests. */
export function hostedSurface(hosting: Hosting): HostedSurface {
  return { patterns: HOSTED_PATTERNS, isControl: isHostedControl, handler: hostedControl(hosting, hosting.options.access), dispatch: (own) => hosting.dispatch(own) };
}
