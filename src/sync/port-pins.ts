import type { RunningMock } from '../../runtime/index.js';
import { freePort } from '../cli/workers/free-ports.js';
import type { FlagSetting, ResolvedConfig } from '../config/index.js';

/** The ports a server of each kind takes, the flag that sets each, and whether uWS may serve it (then it is handed over by SO_REUSEPORT). */
const PORTS: ReadonlyArray<{ kind: string; key: string; flag: string; uws: boolean }> = [
  { kind: 'HTTP', key: 'server.http_port', flag: 'http-port', uws: true },
  { kind: 'WebSocket', key: 'server.ws_port', flag: 'ws-port', uws: true },
  { kind: 'GraphQL', key: 'server.graphql_port', flag: 'graphql-port', uws: true },
  { kind: 'gRPC', key: 'server.grpc_port', flag: 'grpc-port', uws: false },
];

const valueAt = (resolved: ResolvedConfig, key: string): unknown => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], resolved.config);

/**
 * A free port for each port uWS may serve that the configuration leaves to the system (0), chosen
 * before anything binds: a socket bound to port 0 joins no SO_REUSEPORT group, so the next
 * generation could not bind beside it.
 */
export async function sharedPortPins(resolved: ResolvedConfig): Promise<FlagSetting[]> {
  const pins: FlagSetting[] = [];
  for (const { key, flag, uws } of PORTS) if (uws && valueAt(resolved, key) === 0) pins.push({ flag, key, value: await freePort(resolved.config.server.bind) });
  return pins;
}

const portOf = (url: string | undefined): number | undefined => (url === undefined ? undefined : Number(new URL(url).port) || undefined);

/**
 * The ports the other servers got for 0 (gRPC, the admin's and the metrics' own servers), kept
 * where the first generation got them, so that clients find the servers again after a reload; a
 * port the configuration names follows it.
 */
export function boundPortPins(resolved: ResolvedConfig, running: RunningMock): FlagSetting[] {
  const { config } = resolved;
  const pins: FlagSetting[] = [];
  for (const { kind, key, flag } of PORTS) {
    const server = running.servers.find((s) => s.kind === kind);
    if (server !== undefined && valueAt(resolved, key) === 0) pins.push({ flag, key, value: server.port });
  }
  const admin = portOf(running.adminUrl);
  if (admin !== undefined && config.admin.port === 0) pins.push({ flag: 'admin-port', key: 'admin.port', value: admin });
  const metrics = portOf(running.metricsUrl);
  if (metrics !== undefined && config.metrics.port === 0) pins.push({ flag: 'metrics-port', key: 'metrics.port', value: metrics });
  return pins;
}

/** `resolved` with the pinned ports set, as loading it with `pins` as flags would give (without reading any file again). */
export function withPins(resolved: ResolvedConfig, pins: readonly FlagSetting[]): ResolvedConfig {
  const config = structuredClone(resolved.config);
  const sources = { ...resolved.sources };
  for (const { key, value } of pins) {
    const parts = key.split('.');
    const parent = parts.slice(0, -1).reduce<Record<string, unknown>>((node, part) => node[part] as Record<string, unknown>, config as unknown as Record<string, unknown>);
    parent[parts[parts.length - 1]] = value;
    sources[key] = 'flag';
  }
  return { ...resolved, config, sources };
}
