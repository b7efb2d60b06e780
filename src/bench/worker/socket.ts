import net from 'node:net';
import tls from 'node:tls';
import type { Endpoint } from '../protocol.js';

/** A TCP (or TLS) connection to the target, Nagle off. */
export function openSocket(endpoint: Endpoint): net.Socket {
  if (endpoint.protocol === 'https:') {
    const options: tls.ConnectionOptions = {
      host: endpoint.hostname,
      port: endpoint.port,
      rejectUnauthorized: !endpoint.insecure,
      ALPNProtocols: ['http/1.1'],
    };
    if (!net.isIP(endpoint.hostname)) options.servername = endpoint.hostname;
    const socket = tls.connect(options);
    socket.setNoDelay(true);
    return socket;
  }
  return net.connect({ host: endpoint.hostname, port: endpoint.port, noDelay: true });
}

/** The code an error is counted under: the system code when there is one. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code !== '' ? code : 'ERROR';
}

export interface SocketEvents {
  /** false once the load loop has dropped this connection: its late events are ignored. */
  isCurrent(): boolean;
  /** Bytes from the server go here; a throw is a protocol error. */
  parser: { execute(chunk: Buffer): void };
  /** After a chunk parsed cleanly. */
  received?(): void;
  connected(): void;
  protocolError(): void;
  /** The connection closed; `failure` is its first socket error, if any. */
  closed(connected: boolean, failure: string | null): void;
}

/** Opens a connection and wires what every load loop needs from it, so each loop keeps only its own decisions. */
export function watchSocket(endpoint: Endpoint, events: SocketEvents): net.Socket {
  const socket = openSocket(endpoint);
  let connected = false;
  let failure: string | null = null;
  socket.on(endpoint.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
    connected = true;
    events.connected();
  });
  socket.on('data', (chunk: Buffer) => {
    if (!events.isCurrent()) return;
    try {
      events.parser.execute(chunk);
    } catch {
      return events.protocolError();
    }
    events.received?.();
  });
  socket.on('error', (error) => {
    failure ??= errorCode(error);
  });
  socket.on('close', () => {
    if (events.isCurrent()) events.closed(connected, failure);
  });
  return socket;
}

/** Back-off before reconnecting after consecutive failed connects: none, then 20 ms doubling up to 1 s. */
export function reconnectDelayMs(failedConnects: number): number {
  return failedConnects === 0 ? 0 : Math.min(1000, 10 * 2 ** Math.min(failedConnects, 7));
}
