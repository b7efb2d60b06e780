import type { Engine } from '../../terminal/openapi/index.js';

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
  /** Requests answered; for WebSocket, sessions that ended. */
  total_requests: number;
  /** WebSocket: messages of ended sessions, each way. */
  messages_received?: number;
  messages_sent?: number;
  /** The server library that answers: `uws`, `node` (node:http), `node:http2`, `@grpc/grpc-js`. */
  library: string;
  /** The HTTP version it serves: `1.1`, or `2` (HTTP/2, with HTTP/1.1 beside it where TLS offers both). */
  http_version: '1.1' | '2';
}

/** What serves a server's connections, as ServerInfo names it. */
export type ServedBy = Pick<ServerInfo, 'library' | 'http_version'>;

/** A server's ServerInfo: where it listens (or would), since when, and what it counted. */
export function serverInfo(
  kind: ServerKind,
  running: boolean,
  address: string,
  startTime: number,
  counts: Pick<ServerInfo, 'active_connections' | 'total_requests' | 'messages_received' | 'messages_sent'>,
  served: ServedBy,
): ServerInfo {
  return {
    server_type: kind,
    address,
    running,
    start_time: running ? new Date(startTime).toISOString() : null,
    uptime_seconds: running ? Math.round((Date.now() - startTime) / 1000) : 0,
    ...counts,
    ...served,
  };
}

/** What a running protocol server tells the registry about itself, read on every listing. */
export interface RegisteredServer {
  readonly kind: ServerKind;
  /** The port it listens on (known once it listens, also for port 0); null when it does not. */
  readonly listeningPort: number | null;
  /** The port of an HTTP bridge it serves beside its own (gRPC's grpc.http_bridge), once it listens. */
  readonly bridgePort?: number;
  /** Served over TLS (https://, wss://, gRPC over TLS). */
  readonly secure?: boolean;
  info(): ServerInfo;
  /** Set by servers that answer from descriptions: the admin API steers them through it. */
  readonly control?: ServerControl;
  /** What a protocol's own admin endpoint shows (GET /__mock/websocket). */
  details?(): Record<string, unknown>;
  /** Forgets the data it keeps for clients (GraphQL: what mutations stored). */
  reset?(): void;
}

export interface RestartStatus {
  in_progress: boolean;
  initiated_at: string | null;
  reason: string | null;
  success: boolean | null;
  completed_at: string | null;
  error: string | null;
}

/** What the admin API steers of a server that answers from descriptions (the HTTP mock): its engine and its restarts. */
export interface ServerControl {
  /** The HTTP mock's engine, or undefined when no HTTP server runs (`mock admin`). */
  engine(): Engine | undefined;
  restartStatus(): RestartStatus;
  /** Starts a restart; throws AdminError 409 while one runs. */
  restart(reason: string | null): void;
  /** Names of the stages that run for the route of that key (`GET /v1/pets`), or for requests no route matched (null). */
  stagesOf(key: string | null): string[];
  /** What `ServerConfig` reports. */
  specPath: string | null;
  httpPort: number | null;
}
