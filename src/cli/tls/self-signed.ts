import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where `--tls-self-signed` keeps its certificate: one per project, so a browser is told to trust it once. */
export const SELF_SIGNED_DIR = path.join('.mock', 'tls');
const CERT = 'localhost.pem';
const KEY = 'localhost-key.pem';

/** Validity of a made certificate; one within a week of its end is made anew. */
const VALIDITY_DAYS = 825;
const RENEW_BEFORE_MS = 7 * 24 * 3600 * 1000;

export interface SelfSigned {
  certFile: string;
  keyFile: string;
  /** Made by this call (else found from an earlier run): mock serve then says how to trust it. */
  made: boolean;
}

/**
 * The project's certificate for localhost, 127.0.0.1 and ::1, made the first time. Node's crypto
 * makes keys but not certificates: @peculiar/x509 writes the certificate (on Node's WebCrypto,
 * no native code). The folder is made whole under a temporary name and renamed into place, so
 * that workers starting together never pair one's certificate with another's key.
 */
export async function selfSignedCertificate(projectDir: string): Promise<SelfSigned> {
  const dir = path.join(projectDir, SELF_SIGNED_DIR);
  const found = { certFile: path.join(dir, CERT), keyFile: path.join(dir, KEY), made: false };
  if (usable(found.certFile) && existsSync(found.keyFile)) return found;
  const parent = path.dirname(dir);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(path.join(parent, 'tls-'));
  try {
    const { cert, key } = await makeCertificate();
    writeFileSync(path.join(staging, CERT), cert);
    // the private key is for this user alone (umask could leave it readable)
    writeFileSync(path.join(staging, KEY), key, { mode: 0o600 });
    chmodSync(path.join(staging, KEY), 0o600);
    // a private key must never reach a repository by accident
    writeFileSync(path.join(staging, '.gitignore'), '*\n');
    // another worker may have put one in place while this one was made
    if (usable(found.certFile) && existsSync(found.keyFile)) {
      rmSync(staging, { recursive: true, force: true });
      return found;
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    // another process put its folder in place first: use that one
    if (usable(found.certFile) && existsSync(found.keyFile)) return found;
    throw e;
  }
  return { ...found, made: true };
}

/** Whether a certificate is there and not about to end. */
function usable(certFile: string): boolean {
  try {
    const cert = new X509Certificate(readFileSync(certFile));
    return Date.parse(cert.validTo) - Date.now() > RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}

async function makeCertificate(): Promise<{ cert: string; key: string }> {
  const x509 = await import('@peculiar/x509');
  x509.cryptoProvider.set(webcrypto as Crypto);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - 60_000);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    // positive (first bit clear) and unique, as RFC 5280 asks, so browsers never see two certificates with one issuer and serial
    serialNumber: `01${randomBytes(15).toString('hex')}`,
    name: 'CN=localhost, O=mock development certificate',
    notBefore,
    notAfter: new Date(notBefore.getTime() + VALIDITY_DAYS * 24 * 3600 * 1000),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
      ]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const key = `-----BEGIN PRIVATE KEY-----\n${Buffer.from(pkcs8)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim()}\n-----END PRIVATE KEY-----\n`;
  return { cert: `${certificate.toString('pem')}\n`, key };
}

/** How to make this machine trust the certificate, for mock serve to print once it made one. */
export function trustAdvice(certFile: string): string[] {
  const quoted = JSON.stringify(certFile);
  const system =
    process.platform === 'darwin'
      ? `security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db ${quoted}`
      : process.platform === 'win32'
        ? `certutil -user -addstore Root ${quoted}`
        : `certutil -d sql:$HOME/.pki/nssdb -A -t "P,," -n mock-localhost -i ${quoted}  (Chromium and Firefox; the system: sudo cp ${quoted} /usr/local/share/ca-certificates/mock-localhost.crt && sudo update-ca-certificates)`;
  return [
    `mock: made a self-signed certificate for localhost, 127.0.0.1 and ::1: ${certFile} (kept for this project; docs/tls.md)`,
    `mock: to trust it once: ${system}; Node.js clients: NODE_EXTRA_CA_CERTS=${quoted}; curl: --cacert ${quoted}`,
  ];
}
