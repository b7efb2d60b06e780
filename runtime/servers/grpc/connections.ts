import { createPrivateKey } from 'node:crypto';
import net from 'node:net';
import { rootCertificates } from 'node:tls';
import { experimental, ServerCredentials, type Server } from '@grpc/grpc-js';
import { MockError } from '../../../common/errors.js';
import type { TlsOptions } from '../../serve-options.js';

/**
 * The gRPC server's listening socket, held here rather than by grpc-js (bindAsync) so that its
 * connections can be counted (core.max_connections): each accepted connection is handed to grpc-js
 * through its connection injector (Server.createConnectionInjector), which serves it as it serves
 * the connections of a port it bound.
 */
export class GrpcConnections {
  private readonly sockets = new Set<net.Socket>();
  private readonly listener: net.Server;

  constructor(server: Server, tls?: TlsOptions) {
    const injector = server.createConnectionInjector(credentialsOf(tls));
    this.listener = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      injector.injectConnection(socket);
    });
  }

  /** Connections open now. */
  get open(): number {
    return this.sockets.size;
  }

  /** Listens on host:port; the port bound (port 0: a free one). */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (e: NodeJS.ErrnoException): void => {
        reject(new MockError('MOCK_ERR_PORT_IN_USE', `gRPC port ${port} on ${host}: ${e.code === 'EADDRINUSE' ? 'already in use' : (e.code ?? e.message)} (pick another with --grpc-port, or 0 for any free port)`));
      };
      this.listener.once('error', onError);
      this.listener.listen(port, host, () => {
        this.listener.off('error', onError);
        resolve((this.listener.address() as net.AddressInfo).port);
      });
    });
  }

  /** Stops accepting connections, and ends those grpc-js's shutdown left open. */
  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.listener.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    return closed;
  }
}

/**
 * grpc-js's TLS credentials for server.tls; it takes no passphrase, so an encrypted key is handed
 * over decrypted, in memory only. client_auth require checks client certificates against ca;
 * request asks for one and serves the call whatever comes, which only grpc-js's certificate-provider
 * credentials can say (createSsl either requires certificates or never asks).
 */
function credentialsOf(tls: TlsOptions | undefined): ServerCredentials {
  if (tls === undefined) return ServerCredentials.createInsecure();
  const key = Buffer.from(tls.passphrase === undefined ? tls.key : createPrivateKey({ key: tls.key, passphrase: tls.passphrase }).export({ type: 'pkcs8', format: 'pem' }));
  const cert = Buffer.from(tls.cert);
  if (tls.clientAuth === 'request') {
    // without ca, the system's authorities, as node:https asks with
    const ca = Buffer.from(tls.ca ?? rootCertificates.join('\n'));
    const fixed = new FixedCertificates(cert, key, ca);
    return experimental.createCertificateProviderServerCredentials(fixed, fixed, false);
  }
  const requireClients = tls.clientAuth === 'require';
  return ServerCredentials.createSsl(requireClients && tls.ca !== undefined ? Buffer.from(tls.ca) : null, [{ private_key: key, cert_chain: cert }], requireClients);
}

/**
 * The certificates of server.tls, as grpc-js's certificate providers hand them over, once: after
 * the listener is added, since grpc-js registers the server that wants them only after asking.
 */
class FixedCertificates implements experimental.CertificateProvider {
  constructor(
    private readonly certificate: Buffer,
    private readonly privateKey: Buffer,
    private readonly caCertificate: Buffer,
  ) {}

  addCaCertificateListener(listener: experimental.CaCertificateUpdateListener): void {
    queueMicrotask(() => listener({ caCertificate: this.caCertificate }));
  }

  removeCaCertificateListener(): void {}

  addIdentityCertificateListener(listener: experimental.IdentityCertificateUpdateListener): void {
    queueMicrotask(() => listener({ certificate: this.certificate, privateKey: this.privateKey }));
  }

  removeIdentityCertificateListener(): void {}
}
