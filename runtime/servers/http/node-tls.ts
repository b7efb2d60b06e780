import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { ClientCertificate } from '../../chain/exchange/index.js';
import type { TlsOptions } from '../../serve-options.js';

/** node:https's options for server.tls: client certificates asked for by client_auth, refused unless vouched for only under `require`. */
export function tlsServerOptions(tls: TlsOptions): https.ServerOptions {
  const asked = tls.clientAuth !== 'none';
  return { cert: tls.cert, key: tls.key, passphrase: tls.passphrase, ca: tls.ca, requestCert: asked, rejectUnauthorized: tls.clientAuth === 'require' };
}

/**
 * node:http's server, or node:https's under TLS. https.Server is a tls.Server with http.Server's
 * request handling mixed in (the same events, closeAllConnections): the adapters use only that part.
 */
export function createNodeServer(tls: TlsOptions | undefined, listener: http.RequestListener): http.Server {
  return tls === undefined ? http.createServer(listener) : (https.createServer(tlsServerOptions(tls), listener) as unknown as http.Server);
}

/** Each connection's certificate, read on its first request. */
const certificates = new WeakMap<Socket, ClientCertificate | null>();

/** The client's certificate (null: none shown) on a connection of a server that asked for one (`asks`); else undefined. */
export function clientCertificateOf(socket: Socket, asks: boolean): ClientCertificate | null | undefined {
  const tlsSocket = socket as TLSSocket;
  if (!asks || tlsSocket.encrypted !== true) return undefined;
  let known = certificates.get(socket);
  if (known === undefined) {
    known = readCertificate(tlsSocket);
    certificates.set(socket, known);
  }
  return known;
}

function readCertificate(socket: TLSSocket): ClientCertificate | null {
  const peer = socket.getPeerCertificate();
  if (peer === null || peer === undefined || Object.keys(peer).length === 0) return null;
  const subject = Object.entries(peer.subject ?? {})
    .flatMap(([name, value]) => [value].flat().map((one) => `${name}=${one}`))
    .join(',');
  const san = (peer.subjectaltname ?? '')
    .split(', ')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return { authorized: socket.authorized, subject, san, fingerprint: peer.fingerprint256 };
}
