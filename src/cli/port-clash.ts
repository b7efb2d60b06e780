import { MockError } from '../../common/errors.js';
import { ENV_VARIABLES, displayPath, type ResolvedConfig } from '../config/index.js';
import { FLAG_KEYS } from './config-flags.js';
import { adminMode, grpcOptions, websocketOptions } from './serve-options.js';

/** A server `mock serve` starts on its own port, and the key that sets the port. */
interface Listener {
  what: string;
  key: string;
  port: number;
  host: string;
}

/**
 * Refuses, before anything listens, two servers of this run configured on the same port (a
 * later bind would fail with "already in use", as if another process held it). Port 0 is any
 * free port and never clashes.
 */
export function checkPortClash(resolved: ResolvedConfig): void {
  const { server, admin, metrics } = resolved.config;
  const listeners: Listener[] = [];
  // the HTTP mock runs only with a description (a GraphQL schema alone runs none)
  if (resolved.config.specs.length > 0) listeners.push({ what: 'the HTTP mock', key: 'server.http_port', port: server.http_port, host: server.bind });
  if (websocketOptions(resolved) !== undefined) listeners.push({ what: 'the WebSocket mock', key: 'server.ws_port', port: server.ws_port, host: server.bind });
  if (resolved.config.graphql.schema.length > 0) listeners.push({ what: 'the GraphQL mock', key: 'server.graphql_port', port: server.graphql_port, host: server.bind });
  const grpc = grpcOptions(resolved, '.');
  if (grpc !== undefined) listeners.push({ what: 'the gRPC mock', key: 'server.grpc_port', port: server.grpc_port, host: server.bind });
  if (grpc?.httpBridge !== undefined) listeners.push({ what: 'the gRPC HTTP bridge', key: 'grpc.http_bridge.port', port: grpc.httpBridge.port, host: server.bind });
  if (adminMode(resolved)?.standalone) listeners.push({ what: 'the admin server', key: 'admin.port', port: admin.port, host: admin.bind });
  if (metrics.enabled) listeners.push({ what: 'the metrics endpoint', key: 'metrics.port', port: metrics.port, host: metrics.bind });
  for (const [i, a] of listeners.entries()) {
    for (const b of listeners.slice(i + 1)) {
      if (a.port === 0 || a.port !== b.port || !overlap(a.host, b.host)) continue;
      throw new MockError(
        'MOCK_ERR_PORT_CLASH',
        `${settingName(resolved, a.key)} and ${settingName(resolved, b.key)} are both ${a.port}: ${a.what} and ${b.what} cannot share a port; set one of them to another port (0 picks a free one)`,
      );
    }
  }
}

/** Whether two listen addresses share a socket space: equal, or one is a wildcard covering the other. */
function overlap(a: string, b: string): boolean {
  if (a === b || a === '::' || b === '::') return true; // `::` is dual-stack on Linux: every address
  return (a === '0.0.0.0' && !b.includes(':')) || (b === '0.0.0.0' && !a.includes(':'));
}

/** How the user set `key`: `--http-port`, `MOCK_HTTP_PORT`, `server.http_port in mock.yaml`, `admin.port (default)`. */
function settingName(resolved: ResolvedConfig, key: string): string {
  switch (resolved.sources[key]) {
    case 'flag':
      return `--${Object.keys(FLAG_KEYS).find((flag) => FLAG_KEYS[flag] === key)}`;
    case 'env':
      return ENV_VARIABLES.find((variable) => variable.key === key)?.name ?? key;
    case 'file':
      return resolved.file ? `${key} in ${displayPath(resolved.file.file)}` : key;
    default:
      return `${key} (default)`;
  }
}
