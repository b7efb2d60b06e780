import { allowedRefs } from '../cli/allow-ref.js';
import { startServing } from '../cli/start-serving.js';
import { loadConfig } from '../config/index.js';
import type { MockServer, MockServerOptions } from './options.js';

/** How option errors start: `startMockServer options: proxy.rules[0].condition: …`. */
const LABEL = 'startMockServer options';

/** Loopback for the unspecified addresses a server listens on everywhere with: a URL clients can use. */
const reachable = (host: string): string => (host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host);

/**
 * Starts a mock from code, as `mock serve` would from the same mock.yaml: builds the description
 * (and the GraphQL schema, the .proto files) when its build is missing or stale, then serves it. Options are checked as mock.yaml is; a
 * mistake rejects with a MockError whose message names the option (one line per mistake).
 *
 * @example
 * const mock = await startMockServer({
 *   spec: 'api.yaml',
 *   server: { http_port: 0, bind: '127.0.0.1' },
 *   proxy: { rules: [{ pattern: '/v1/admin/**', upstream_url: 'https://staging.example.com', condition: "$.user.role == 'admin'" }] },
 * });
 * await fetch(`${mock.url}/v1/pets`);
 * await mock.close();
 */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const { spec, configFile, cwd, allowRefs, stores, ...config } = options;
  const values = spec === undefined ? config : { ...config, specs: Array.isArray(spec) ? spec : [spec] };
  const resolved = loadConfig({ cwd, env: {}, configPath: configFile, search: false, given: { label: LABEL, values } });
  const { running, close } = await startServing(resolved, { allowRefs: allowedRefs(allowRefs, cwd), stores });
  // with a GraphQL schema (or .proto files) alone no HTTP mock runs: url and port are then the first server's
  const http = running.servers.find((server) => server.kind === 'HTTP') ?? running.servers[0];
  // https:// and wss:// under TLS
  const base = (scheme: string, server: { host: string; port: number; secure?: boolean }): string => {
    const host = reachable(server.host);
    return `${scheme}${server.secure === true ? 's' : ''}://${host.includes(':') ? `[${host}]` : host}:${server.port}`;
  };
  const websocket = running.servers.find((server) => server.kind === 'WebSocket');
  const graphql = running.servers.find((server) => server.kind === 'GraphQL');
  const grpc = running.servers.find((server) => server.kind === 'gRPC');
  return {
    url: base('http', http),
    port: http.port,
    adminUrl: running.adminUrl,
    wsUrl: websocket === undefined ? undefined : base('ws', websocket),
    graphqlUrl: graphql === undefined ? undefined : `${base('http', graphql)}${resolved.config.graphql.path}`,
    grpcAddress: grpc === undefined ? undefined : base('grpc', { ...grpc, secure: false }).slice('grpc://'.length),
    close,
  };
}
