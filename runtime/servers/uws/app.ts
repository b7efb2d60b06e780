import type { TlsOptions } from '../../serve-options.js';
import { uws, type TemplatedApp } from './uws.js';

/**
 * A plain app, or under TLS an SSLApp, which reads the files itself (checked at start by the CLI).
 * Client certificates are never asked for: uWS does not show them to the application, so servers
 * that need them serve with node:https (http/backend.ts).
 */
export function appOf(tls: TlsOptions | undefined): TemplatedApp {
  if (tls === undefined) return uws().App();
  return uws().SSLApp({ cert_file_name: tls.certFile, key_file_name: tls.keyFile, ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }) });
}
