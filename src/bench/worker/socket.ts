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
