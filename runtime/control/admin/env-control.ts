import type { Logger } from 'pino';
import { redactUrlCredentials } from '../../../common/redacted.js';
import type { LiveState } from '../../chain/settings/index.js';
import type { ServerRegistry } from '../registry/index.js';
import type { EnvControl } from './context.js';
import { AdminError } from './envelope.js';
import { checkLatency, checkProxy, checkValidation } from './live-settings.js';
import { serversOf } from './server-control.js';

/** Settles once the setting is in the store. */
type Apply = (value: string, target: { live: LiveState; registry: ServerRegistry; logger: Logger }) => unknown;

const BOOLEAN: Readonly<Record<string, boolean>> = { true: true, '1': true, false: false, '0': false };

function bool(name: string, value: string): boolean {
  const parsed = BOOLEAN[value.toLowerCase()];
  if (parsed === undefined) throw new AdminError(400, `${name} takes true, false, 1 or 0 (got "${value}")`);
  return parsed;
}

function engineOf(name: string, registry: ServerRegistry) {
  const engine = serversOf(registry).engine();
  if (engine === undefined) throw new AdminError(409, `${name} applies to the HTTP mock server, which does not run in this process`);
  return engine;
}

/**
 * Variables that map to a live setting take effect at once, checked by the checks of the endpoint
 * that sets the same setting (POST /__mock/validation, /__mock/config/latency, /__mock/config/proxy);
 * the rest are read at the next start.
 */
const LIVE: Readonly<Record<string, Apply>> = {
  MOCK_REQUEST_VALIDATION: (value, { registry }) => {
    const change = checkValidation({ mode: value }, 'MOCK_REQUEST_VALIDATION');
    const engine = engineOf('MOCK_REQUEST_VALIDATION', registry);
    return engine.setValidation({ ...engine.validationOptions, ...change });
  },
  MOCK_RESPONSE_VALIDATION: (value, { registry }) => {
    const change = checkValidation({ validate_responses: bool('MOCK_RESPONSE_VALIDATION', value) }, 'MOCK_RESPONSE_VALIDATION');
    const engine = engineOf('MOCK_RESPONSE_VALIDATION', registry);
    return engine.setValidation({ ...engine.validationOptions, ...change });
  },
  MOCK_RESPONSE_TEMPLATE_EXPAND: (value, { registry }) => engineOf('MOCK_RESPONSE_TEMPLATE_EXPAND', registry).setTemplateExpansion(bool('MOCK_RESPONSE_TEMPLATE_EXPAND', value)),
  MOCK_LATENCY_ENABLED: (value, { live }) => live.setLatency({ ...live.latency, ...checkLatency({ enabled: bool('MOCK_LATENCY_ENABLED', value) }, 'MOCK_LATENCY_ENABLED') }),
  // empty: no upstream (the proxy stays as it is, and proxies nothing without one)
  MOCK_PROXY_UPSTREAM: (value, { live }) => live.setProxy({ ...live.proxy, ...checkProxy({ upstream_url: value === '' ? null : value }, 'MOCK_PROXY_UPSTREAM') }),
  MOCK_LOG_LEVEL: (value, { logger }) => {
    if (!['error', 'warn', 'info', 'debug', 'trace'].includes(value)) throw new AdminError(400, `MOCK_LOG_LEVEL takes error, warn, info, debug or trace (got "${value}")`);
    logger.level = value;
  },
};

/** Values never echoed back by GET /__mock/env: variables named like a credential (MOCK_MANAGEMENT_TOKEN, JWT_SECRET, MOCK_API_KEY …). */
const SECRET = /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIAL/;

export function createEnvControl(known: readonly string[], target: { live: LiveState; registry: ServerRegistry; logger: Logger }): EnvControl {
  return {
    known,
    values() {
      const out: Record<string, string> = {};
      const names = new Set([...known, ...Object.keys(process.env).filter((name) => name.startsWith('MOCK_'))]);
      for (const name of [...names].sort()) {
        const value = process.env[name];
        // and the password of a URL (MOCK_PROXY_UPSTREAM=https://user:pass@host) whatever the name
        if (value !== undefined) out[name] = SECRET.test(name) ? '********' : redactUrlCredentials(value);
      }
      return out;
    },
    async set(key, value) {
      if (!/^MOCK_[A-Z0-9_]+$/.test(key)) throw new AdminError(400, `key must be a MOCK_ variable in upper case, such as MOCK_REQUEST_VALIDATION (got "${key}")`);
      const apply = LIVE[key];
      await apply?.(value, target);
      process.env[key] = value;
      target.logger.info({ key }, 'admin: environment variable set for this process');
      const when = apply !== undefined ? 'applied now' : 'read at the next start';
      return `${key} set for this process (${when}; runtime only, lost when the process restarts)`;
    },
  };
}
