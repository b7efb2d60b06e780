import type { RegisteredServer, ServerControl, ServerInfo, ServerKind } from './server-info.js';

/** The keys of the health answer's `services`: the spec's three, and graphql (a server of its own, on its own port). */
const SERVICES: ReadonlyArray<[key: string, kind: ServerKind]> = [
  ['http', 'HTTP'],
  ['websocket', 'WebSocket'],
  ['grpc', 'gRPC'],
  ['graphql', 'GraphQL'],
];

export type ServiceState = 'running' | 'stopped' | 'disabled';

/**
 * The protocol servers of this process. Each adds itself when it starts and removes itself when
 * it closes; the admin API's servers[], server-info and health read only this, so a new
 * protocol shows up there by registering, not by editing the admin endpoints.
 */
export class ServerRegistry {
  private readonly servers = new Set<RegisteredServer>();

  /** Returns the function that removes it again. */
  add(server: RegisteredServer): () => void {
    this.servers.add(server);
    return () => this.servers.delete(server);
  }

  /** The ports mocks are served on now, whatever the protocol: the admin API never trusts pages from them. */
  ports(): Set<number> {
    const ports = new Set<number>();
    for (const server of this.servers) {
      if (server.listeningPort !== null) ports.add(server.listeningPort);
      if (server.bridgePort !== undefined) ports.add(server.bridgePort);
    }
    return ports;
  }

  /** The control of the first server that answers from descriptions; undefined when none runs (`mock admin`). */
  control(): ServerControl | undefined {
    for (const server of this.servers) if (server.control !== undefined) return server.control;
    return undefined;
  }

  /** What the first server of a protocol shows on its own endpoint; undefined when none runs. */
  details(kind: ServerKind): Record<string, unknown> | undefined {
    for (const server of this.servers) if (server.kind === kind && server.details !== undefined) return server.details();
    return undefined;
  }

  /** Resets the data of the first server of a protocol that keeps some; false when none runs. */
  reset(kind: ServerKind): boolean {
    for (const server of this.servers) {
      if (server.kind === kind && server.reset !== undefined) {
        server.reset();
        return true;
      }
    }
    return false;
  }

  list(): ServerInfo[] {
    return [...this.servers].map((server) => server.info());
  }

  /** The first running server of a protocol, else the first registered one. */
  /** Whether the server of that kind serves over TLS (its URLs are https://, wss://). */
  secure(kind: ServerKind): boolean {
    return [...this.servers].some((server) => server.kind === kind && server.secure === true);
  }

  find(kind: ServerKind): ServerInfo | undefined {
    const infos = this.list().filter((info) => info.server_type === kind);
    return infos.find((info) => info.running) ?? infos[0];
  }

  /** health's `services`: every protocol, `disabled` when no server of it is registered. */
  services(): Record<string, ServiceState> {
    return Object.fromEntries(
      SERVICES.map(([key, kind]) => {
        const info = this.find(kind);
        return [key, info === undefined ? 'disabled' : info.running ? 'running' : 'stopped'];
      }),
    );
  }
}
