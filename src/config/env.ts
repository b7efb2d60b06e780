import path from 'node:path';
import { MockError } from '../../common/errors.js';
import { layerFromSettings, type Layer, type Setting } from './layer.js';

/** `paths`: a list of paths, separated as in PATH (`:`, `;` on Windows), since globs use commas (`{a,b}.graphql`). */
export type EnvType = 'integer' | 'boolean' | 'string' | 'json' | 'paths' | 'count';

export interface EnvVariable {
  name: string;
  /** Dotted config key it sets. */
  key: string;
  type: EnvType;
  /** A boolean that sets the opposite value (`MOCK_ADMIN_API_ENABLED=false` sets `admin.disable_api: true`). */
  invert?: boolean;
  /** For `json`: what the value must be, e.g. `a JSON array`. */
  expected?: string;
}

/**
 * Environment variables that set configuration keys; support another by adding a row. Only the
 * type is converted here: allowed values and ranges are the schema's job, and its errors name the
 * variable. (MOCK_CONFIG_FILE picks the file rather than a key: see lookup.ts.)
 */
export const ENV_VARIABLES: readonly EnvVariable[] = [
  { name: 'MOCK_HTTP_PORT', key: 'server.http_port', type: 'integer' },
  { name: 'MOCK_HTTP_HOST', key: 'server.bind', type: 'string' },
  { name: 'MOCK_HTTP_BACKEND', key: 'server.http_backend', type: 'string' },
  { name: 'MOCK_HTTP_VERSION', key: 'server.http_version', type: 'string' },
  { name: 'MOCK_WORKERS', key: 'server.workers', type: 'count' },
  { name: 'MOCK_TLS_CERT', key: 'server.tls.cert', type: 'string' },
  { name: 'MOCK_TLS_KEY', key: 'server.tls.key', type: 'string' },
  { name: 'MOCK_STATE_STORE', key: 'state.store', type: 'string' },
  { name: 'MOCK_REDIS_URL', key: 'state.redis_url', type: 'string' },
  { name: 'MOCK_REDIS_KEY_PREFIX', key: 'state.redis_key_prefix', type: 'string' },
  { name: 'MOCK_SCENARIO_REGISTRY', key: 'scenarios.registry', type: 'string' },
  { name: 'MOCK_WS_PORT', key: 'server.ws_port', type: 'integer' },
  { name: 'MOCK_GRPC_PORT', key: 'server.grpc_port', type: 'integer' },
  { name: 'MOCK_GRPC_PROTO_DIR', key: 'grpc.proto_dir', type: 'string' },
  { name: 'MOCK_GRAPHQL_PORT', key: 'server.graphql_port', type: 'integer' },
  { name: 'MOCK_GRAPHQL_SCHEMA', key: 'graphql.schema', type: 'paths' },
  { name: 'MOCK_ADMIN_ENABLED', key: 'admin.enabled', type: 'boolean' },
  { name: 'MOCK_ADMIN_PORT', key: 'admin.port', type: 'integer' },
  { name: 'MOCK_ADMIN_HOST', key: 'admin.bind', type: 'string' },
  { name: 'MOCK_ADMIN_API_ENABLED', key: 'admin.disable_api', type: 'boolean', invert: true },
  { name: 'MOCK_ADMIN_AUTH_ENABLED', key: 'admin.auth.enabled', type: 'boolean' },
  { name: 'JWT_SECRET', key: 'admin.auth.jwt_secret', type: 'string' },
  { name: 'MOCK_DISABLE_DEV_SEED_USERS', key: 'admin.auth.seed_dev_users', type: 'boolean', invert: true },
  { name: 'MOCK_MANAGEMENT_TOKEN', key: 'admin.management_token', type: 'string' },
  { name: 'MOCK_REQUEST_VALIDATION', key: 'validation.mode', type: 'string' },
  { name: 'MOCK_RESPONSE_VALIDATION', key: 'validation.validate_responses', type: 'boolean' },
  { name: 'MOCK_RESPONSE_TEMPLATE_EXPAND', key: 'response_template_expand', type: 'boolean' },
  { name: 'MOCK_LATENCY_ENABLED', key: 'chaos.latency_enabled', type: 'boolean' },
  { name: 'MOCK_FIXTURES_DIR', key: 'core.fixtures.dir', type: 'string' },
  { name: 'MOCK_WS_REPLAY_FILE', key: 'websocket.replay_file', type: 'string' },
  { name: 'MOCK_LOG_LEVEL', key: 'logging.level', type: 'string' },
  { name: 'MOCK_PROXY_UPSTREAM', key: 'proxy.upstream_url', type: 'string' },
  { name: 'MOCK_RATE_LIMIT_ENABLED', key: 'observability.chaos.rate_limit.enabled', type: 'boolean' },
  { name: 'MOCK_METRICS_HOST', key: 'metrics.bind', type: 'string' },
  { name: 'MOCK_HTTP_CORS', key: 'http.cors.enabled', type: 'boolean' },
  { name: 'MOCK_HTTP_KEEPALIVE_HINT', key: 'http.keepalive_hint', type: 'boolean' },
  { name: 'MOCK_HTTP_OVERRIDES', key: 'http.overrides.rules', type: 'json', expected: 'a JSON array of override rules' },
  { name: 'MOCK_HTTP_OVERRIDES_GLOB', key: 'http.overrides.glob', type: 'string' },
  { name: 'MOCK_AI_ENABLED', key: 'ai.enabled', type: 'boolean' },
  { name: 'MOCK_AI_ENDPOINT', key: 'ai.endpoint', type: 'string' },
  { name: 'MOCK_AI_MODEL', key: 'ai.model', type: 'string' },
  { name: 'MOCK_AI_API_KEY', key: 'ai.api_key', type: 'string' },
  { name: 'MOCK_RAG_PROVIDER', key: 'ai.rag_provider', type: 'string' },
  { name: 'MOCK_CONFORMANCE_BUFFER_UNIQUE', key: 'conformance.buffer_unique', type: 'boolean' },
  { name: 'MOCK_SEED', key: 'seed', type: 'integer' },
];

const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, '1': true, false: false, '0': false };

function convert(variable: EnvVariable, raw: string): unknown {
  switch (variable.type) {
    case 'integer': {
      const value = Number(raw);
      if (/^[+-]?\d+$/.test(raw) && Number.isSafeInteger(value)) return value;
      throw invalid(variable, `expected integer, got ${JSON.stringify(raw)}`);
    }
    case 'boolean': {
      const value = BOOLEANS[raw.toLowerCase()];
      if (value !== undefined) return variable.invert ? !value : value;
      throw invalid(variable, `expected boolean (true, false, 1 or 0), got ${JSON.stringify(raw)}`);
    }
    case 'json':
      try {
        return JSON.parse(raw);
      } catch (error) {
        const shown = raw.length > 40 ? `${raw.slice(0, 39)}…` : raw;
        throw invalid(variable, `expected ${variable.expected ?? 'JSON'}, got ${JSON.stringify(shown)} (${(error as Error).message})`);
      }
    case 'string':
      return raw;
    // a number, or a word the schema knows (server.workers: auto)
    case 'count':
      return /^\d+$/.test(raw) ? Number(raw) : raw;
    case 'paths':
      return raw.split(path.delimiter).map((entry) => entry.trim()).filter((entry) => entry !== '');
  }
}

const invalid = (variable: EnvVariable, text: string): MockError => new MockError('MOCK_ERR_CONFIG_INVALID', `${variable.name}: ${text}`);

/** The configuration set by `env`; a variable set to the empty string counts as unset. */
export function envLayer(env: Readonly<Record<string, string | undefined>>): Layer {
  const settings: Setting[] = [];
  for (const variable of ENV_VARIABLES) {
    const raw = env[variable.name]?.trim();
    if (raw) settings.push({ label: variable.name, key: variable.key, value: convert(variable, raw) });
  }
  return layerFromSettings('env', settings, 'MOCK_ERR_CONFIG_INVALID');
}
