import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MockError } from '../../../common/errors.js';
import type { TlsOptions } from '../../../runtime/index.js';
import { displayPath, type TlsConfig } from '../../config/index.js';

/** A TLS block of mock.yaml whose files are found: given, or the project's self-signed pair. */
export interface TlsFiles {
  /** Dotted key of the block (`server.tls`, `admin.tls`), for errors. */
  at: string;
  certFile: string;
  keyFile: string;
  config: TlsConfig;
}

/** How the user sets each file of server.tls from the command line, for the errors' fix. */
const FLAGS: Readonly<Record<string, string>> = { 'server.tls.cert': ' (--tls-cert, MOCK_TLS_CERT)', 'server.tls.key': ' (--tls-key, MOCK_TLS_KEY)' };

/**
 * Reads and checks a block's files, so that a wrong one stops the start in one line naming it
 * rather than failing every handshake: readable PEM, a key that opens with the passphrase and
 * belongs to the certificate, a readable CA bundle. The passphrase itself is never shown.
 */
export function loadTls({ at, certFile, keyFile, config }: TlsFiles): TlsOptions {
  const cert = readPem(`${at}.cert`, certFile, 'certificate');
  const key = readPem(`${at}.key`, keyFile, 'private key');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw new MockError(
      'MOCK_ERR_TLS_FILE',
      `${at}.cert${FLAGS[`${at}.cert`] ?? ''}: ${displayPath(certFile)} holds no PEM certificate (-----BEGIN CERTIFICATE-----): give the certificate file, or use --tls-self-signed`,
    );
  }
  const privateKey = openKey(at, keyFile, key, config.passphrase);
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new MockError(
      'MOCK_ERR_TLS_KEY_MISMATCH',
      `${at}.key: ${displayPath(keyFile)} is not the private key of ${displayPath(certFile)} (${certificate.subject.replace(/\n/g, ', ')}): give the key the certificate was made for`,
    );
  }
  const caFile = config.ca;
  const ca = caFile === undefined ? undefined : readPem(`${at}.ca`, caFile, 'CA bundle');
  if (ca !== undefined) {
    try {
      new X509Certificate(ca);
    } catch {
      throw new MockError('MOCK_ERR_TLS_FILE', `${at}.ca: ${displayPath(caFile as string)} holds no PEM certificate: give the PEM bundle of the authorities that sign client certificates`);
    }
  }
  return { cert, key, passphrase: config.passphrase, ca, certFile, keyFile, caFile, clientAuth: config.client_auth ?? 'none' };
}

function readPem(key: string, file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'a folder' : (code ?? (e as Error).message);
    throw new MockError(
      'MOCK_ERR_TLS_FILE',
      `${key}${FLAGS[key] ?? ''}: cannot read the ${what} ${displayPath(file)} (${why}): give the path of a PEM ${what}, or use --tls-self-signed for localhost`,
    );
  }
}

function openKey(at: string, keyFile: string, key: string, passphrase: string | undefined): KeyObject {
  const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(key);
  if (encrypted && passphrase === undefined) {
    throw new MockError('MOCK_ERR_TLS_PASSPHRASE', `${at}.key: ${displayPath(keyFile)} is encrypted: set ${at}.passphrase in mock.yaml, or give the key unencrypted`);
  }
  try {
    return createPrivateKey(encrypted ? { key, passphrase } : { key });
  } catch (e) {
    if (encrypted) throw new MockError('MOCK_ERR_TLS_PASSPHRASE', `${at}.passphrase does not open ${displayPath(keyFile)}: give the passphrase the key was encrypted with`);
    throw new MockError(
      'MOCK_ERR_TLS_FILE',
      `${at}.key${FLAGS[`${at}.key`] ?? ''}: ${displayPath(keyFile)} holds no PEM private key (${(e as Error).message.replace(/^error:\w+:/, '')}): give the key file`,
    );
  }
}

/** proxy.ca: a PEM bundle of authorities, checked at start. */
export function readCaBundle(file: string): string {
  const ca = readPem('proxy.ca', file, 'CA bundle');
  try {
    new X509Certificate(ca);
  } catch {
    throw new MockError('MOCK_ERR_TLS_FILE', `proxy.ca: ${displayPath(file)} holds no PEM certificate: give the PEM bundle of the authorities that sign the upstream's certificate`);
  }
  return ca;
}
