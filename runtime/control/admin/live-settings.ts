import type { FaultConfig, LatencyConfig, ProxyConfig } from '../../chain/settings/index.js';
import { FAULTS_PATCH, LATENCY_PATCH, PROXY_PATCH, VALIDATION_PATCH } from '../../chain/settings/runtime-config-schema.js';
import type { ValidationOptions } from '../../serve-options.js';
import { checkUpstreamUrl } from '../../chain/proxy/index.js';
import { bodyChecker } from './body-schema.js';
import { AdminError } from './envelope.js';

/**
 * The checks of partial updates to the live settings, shared by every admin endpoint that sets
 * them (POST /__mock/config and its sections, POST /__mock/validation, and POST /__mock/env for the
 * variables that map to them), so a value one refuses the others refuse too. `what` names the
 * input in the 400's sentence.
 */
export const checkLatency = bodyChecker<Partial<LatencyConfig>>(LATENCY_PATCH);
export const checkFaults = bodyChecker<Partial<FaultConfig>>(FAULTS_PATCH);
export const checkValidation = bodyChecker<Partial<ValidationOptions & { skip_admin_validation: boolean }>>(VALIDATION_PATCH);

const checkProxyShape = bodyChecker<Partial<ProxyConfig>>(PROXY_PATCH);

/** The proxy's fields, the upstream parsed as the proxy will (a URL it cannot use would fail every later request). */
export function checkProxy(patch: unknown, what: string): Partial<ProxyConfig> {
  const change = checkProxyShape(patch, what);
  const problem = typeof change.upstream_url === 'string' ? checkUpstreamUrl(change.upstream_url) : undefined;
  if (problem !== undefined) throw new AdminError(400, `${what}: upstream_url ${problem}`);
  return change;
}
