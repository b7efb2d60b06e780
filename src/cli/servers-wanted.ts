import { ENV_VARIABLES, displayPath, type ResolvedConfig } from '../config/index.js';

/**
 * Whether this run has a WebSocket server: websocket.enabled, or (absent) something to play (a
 * replay file, routes) or --ws-port. A port from the environment or mock.yaml says where it
 * listens, not whether: CI and container environments set MOCK_*_PORT for every job.
 */
export function websocketWanted({ config, sources }: ResolvedConfig): boolean {
  const ws = config.websocket;
  return ws.enabled ?? (ws.replay_file !== undefined || (ws.routes ?? []).length > 0 || sources['server.ws_port'] === 'flag');
}

/** Which protocol servers this run starts besides HTTP. */
export interface ProtocolsStarted {
  websocket: boolean;
  graphql: boolean;
  grpc: boolean;
}

const IDLE_PORTS = [
  { key: 'server.ws_port', protocol: 'websocket', server: 'WebSocket', asks: 'websocket.routes, websocket.replay_file, websocket.enabled or --ws-port ask for one' },
  { key: 'server.graphql_port', protocol: 'graphql', server: 'GraphQL', asks: 'a schema asks for one: --graphql-schema, graphql.schema, MOCK_GRAPHQL_SCHEMA' },
  { key: 'server.grpc_port', protocol: 'grpc', server: 'gRPC', asks: '.proto files in grpc.proto_dir (proto/) or --grpc-port ask for one' },
] as const;

/**
 * One line for each port the environment or mock.yaml sets for a server this run does not start:
 * the port is kept for when one does, and nothing stops.
 */
export function idlePortNotes(resolved: ResolvedConfig, started: ProtocolsStarted): string[] {
  const { config, sources, file } = resolved;
  const notes: string[] = [];
  for (const { key, protocol, server, asks } of IDLE_PORTS) {
    const source = sources[key];
    if (started[protocol] || (source !== 'env' && source !== 'file')) continue;
    const port = config.server[key.slice('server.'.length) as 'ws_port' | 'graphql_port' | 'grpc_port'];
    const setting = source === 'env' ? (ENV_VARIABLES.find((v) => v.key === key)?.name ?? key) : file ? `${key} in ${displayPath(file.file)}` : key;
    notes.push(`${setting} (${port}) says where a ${server} server would listen; none starts, as nothing asks for one (${asks})`);
  }
  return notes;
}
