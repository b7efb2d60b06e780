/** The protocols a mock serves, as the admin API names them. */
export type ServerKind = 'HTTP' | 'WebSocket' | 'gRPC' | 'GraphQL';

/** One protocol server as the dashboard lists it (the spec's ServerInfo). */
export interface ServerInfo {
  server_type: ServerKind;
  /** host:port */
  address: string;
  running: boolean;
  start_time: string | null;
  uptime_seconds: number;
  /** uWebSockets.js does not count connections: null rather than a guess. */
  active_connections: number | null;
  total_requests: number;
}

/** What a running protocol server tells the registry about itself, read on every listing. */
export interface RegisteredServer {
  readonly kind: ServerKind;
  /** The port it listens on (known once it listens, also for port 0); null when it does not. */
  readonly listeningPort: number | null;
  info(): ServerInfo;
}
