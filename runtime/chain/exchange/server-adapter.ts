/**
 * A protocol server at the edge: it reads requests into exchanges, hands them to the chain and
 * writes answers as their delivery says. HTTP has a uWebSockets.js and a node:http one; the
 * WebSocket, GraphQL and gRPC servers implement the same contract, and the admin API lists
 * whatever is registered (servers[], server-info, health services).
 */
export interface ServerAdapter {
  /** As the admin API names it: HTTP, WebSocket, gRPC, GraphQL. */
  readonly kind: string;
  /** The server library: uws, node … */
  readonly library: string;
  /** Throws MockError (port in use, address refused) naming `flag` as the way to pick another port. */
  listen(host: string, port: number, flag: string): Promise<void>;
  /**
   * Stops listening, lets the requests being answered finish for up to `graceMs` (their connections
   * closing after their answers; 0, the default: none), then ends every open connection.
   */
  close(graceMs?: number): Promise<void>;
  readonly listening: boolean;
  /** The bound port (the asked one before listen). */
  readonly port: number;
  /** `host:port`, IPv6 hosts in brackets. */
  readonly address: string;
  /** Connections open now (the admin API's active_connections). */
  readonly connections: number;
}

export const hostPort = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;
