import type { Logger } from 'pino';
import type { MockOptions, OverrideRule, ServeOptions } from '../../runtime/index.js';
import { ENV_VARIABLES, type EffectiveConfig, type ResolvedConfig } from '../config/index.js';

export function toServeOptions(config: EffectiveConfig, buildDir: string, logger: Logger): ServeOptions {
  const { mode, aggregate_errors, validate_responses, security, status_code, overrides } = config.validation;
  return {
    buildDir,
    host: config.server.bind,
    port: config.server.http_port,
    validation: { mode, aggregate_errors, validate_responses, security, status_code, overrides },
    templateExpand: config.response_template_expand,
    seed: config.seed,
    maxBodyBytes: config.http.max_body_bytes,
    httpBackend: config.server.http_backend,
    logger,
  };
}

/**
 * Embedded when asked for, unless `admin.standalone` was set explicitly as well: the spec's
 * default for standalone is true, and a default must not undo an explicit --admin-embed.
 */
export function adminMode(resolved: ResolvedConfig): MockOptions['admin'] {
  const { admin } = resolved.config;
  if (!admin.enabled && !admin.embedded) return undefined;
  const standalone = !admin.embedded || (admin.standalone && resolved.sources['admin.standalone'] !== 'default');
  return { standalone, port: admin.port, host: admin.bind, mountPath: admin.mount_path.replace(/\/+$/, '') || '/admin', api: !admin.disable_api };
}

export function authOptions(config: EffectiveConfig, logger: Logger): MockOptions['auth'] {
  const { auth, management_token } = config.admin;
  return {
    enabled: auth.enabled,
    jwtSecret: auth.jwt_secret,
    accessTtlSeconds: auth.session_timeout_seconds,
    refreshTtlSeconds: auth.refresh_timeout_seconds,
    users: auth.users,
    seedDevUsers: auth.seed_dev_users,
    managementToken: management_token,
    logger: { warn: (message) => logger.warn(message) },
  };
}

/** admin.allowed_hosts and admin.cors.allowed_origins: who may talk to the admin API and the management router. */
export function accessOptions(config: EffectiveConfig): NonNullable<MockOptions['access']> {
  return { allowedHosts: config.admin.allowed_hosts, allowedOrigins: config.admin.cors.allowed_origins };
}

export function redactionOptions(config: EffectiveConfig): NonNullable<MockOptions['redaction']> {
  return { credentials: config.logging.redact_credentials, names: config.logging.redact };
}

/**
 * The flat `chaos.latency_*` range as the live latency (base = min, jitter up to max - min) when it
 * is on; otherwise none, so that an admin update naming only base_ms does not inherit the default
 * 0-1000 ms range as jitter.
 */
function latency(config: EffectiveConfig): NonNullable<MockOptions['live']>['latency'] {
  const { latency_enabled, latency_min_ms, latency_max_ms } = config.chaos;
  if (!latency_enabled) return { enabled: false, base_ms: 0, jitter_ms: 0, tag_overrides: {} };
  return { enabled: true, base_ms: latency_min_ms, jitter_ms: Math.max(0, latency_max_ms - latency_min_ms), tag_overrides: {} };
}

export interface MockServeExtras {
  rebuild: () => Promise<string>;
  overrides: OverrideRule[];
  version: string;
}

/** Everything `mock serve` starts: the HTTP mock, admin, metrics, auth and the live state's starting values. */
export function toMockOptions(resolved: ResolvedConfig, buildDir: string, logger: Logger, extras: MockServeExtras): MockOptions {
  const { config } = resolved;
  return {
    ...toServeOptions(config, buildDir, logger),
    rebuild: extras.rebuild,
    specPath: config.specs[0]?.path ?? null,
    live: {
      latency: latency(config),
      proxy: { enabled: config.proxy.enabled, upstream_url: config.proxy.upstream_url ?? null, timeout_seconds: config.proxy.timeout_seconds },
      overrides: extras.overrides,
    },
    admin: adminMode(resolved),
    metrics: config.metrics.enabled ? { port: config.metrics.port, host: config.metrics.bind } : undefined,
    auth: authOptions(config, logger),
    access: accessOptions(config),
    redaction: redactionOptions(config),
    requestLinesPerSecond: config.logging.request_lines_per_second,
    envVariables: ENV_VARIABLES.map((v) => v.name),
    projectDir: resolved.projectDir,
    configFile: resolved.file?.file,
    version: extras.version,
  };
}

/** Where the startup override rules come from, so that an error names the variable or the file key. */
export function overrideSources(resolved: ResolvedConfig): { env: NodeJS.ProcessEnv; cwd: string; configRules?: unknown[]; configGlob?: string } {
  const { config, sources, projectDir } = resolved;
  const fromEnv = (key: string): boolean => sources[key] === 'env';
  const rules = config.http.overrides?.rules;
  const glob = config.http.overrides?.glob;
  return {
    env: {
      MOCK_HTTP_OVERRIDES: fromEnv('http.overrides.rules') ? process.env.MOCK_HTTP_OVERRIDES : undefined,
      MOCK_HTTP_OVERRIDES_GLOB: fromEnv('http.overrides.glob') ? glob : undefined,
    },
    cwd: fromEnv('http.overrides.glob') ? process.cwd() : projectDir,
    configRules: rules !== undefined && !fromEnv('http.overrides.rules') ? rules : undefined,
    configGlob: glob !== undefined && !fromEnv('http.overrides.glob') ? glob : undefined,
  };
}
