// Test certificates made with the openssl CLI (a tool other than the one mock makes its own with):
// a CA, a server certificate it signs for localhost and 127.0.0.1, client certificates it signs,
// and one nobody vouches for.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const openssl = (dir, args) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** Writes ca.pem, server.pem/server.key, server-encrypted.key (passphrase "s3cret"), other.pem/other.key (a second self-signed pair), client.pem/client.key (CN=client-a, O=Acme, DNS:client-a.example), rogue.pem/rogue.key (self-signed) into `dir`. */
export function makeCertificates(dir) {
  openssl(dir, ['req', '-x509', ...newKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=mock test CA']);
  const signed = (name, subject, extensions) => {
    writeFileSync(path.join(dir, `${name}.ext`), extensions);
    openssl(dir, ['req', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
    openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '30', '-extfile', `${name}.ext`]);
  };
  signed('server', '/CN=localhost', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  signed('client', '/CN=client-a/O=Acme', 'subjectAltName=DNS:client-a.example\nextendedKeyUsage=clientAuth\n');
  openssl(dir, ['pkey', '-in', 'server.key', '-aes256', '-passout', 'pass:s3cret', '-out', 'server-encrypted.key']);
  openssl(dir, ['req', '-x509', ...newKey, '-keyout', 'other.key', '-out', 'other.pem', '-days', '30', '-subj', '/CN=other']);
  openssl(dir, ['req', '-x509', ...newKey, '-keyout', 'rogue.key', '-out', 'rogue.pem', '-days', '30', '-subj', '/CN=rogue']);
  const file = (name) => readFileSync(path.join(dir, name), 'utf8');
  return { dir, ca: file('ca.pem'), client: { cert: file('client.pem'), key: file('client.key') }, rogue: { cert: file('rogue.pem'), key: file('rogue.key') } };
}

/** SHA-256 fingerprint as openssl prints it (AB:CD:…). */
export function fingerprint(dir, certFile) {
  return execFileSync('openssl', ['x509', '-in', certFile, '-noout', '-fingerprint', '-sha256'], { cwd: dir, encoding: 'utf8' }).trim().split('=')[1];
}

/** Runs curl; resolves {code (curl's exit), status, body}. */
export function curl(args) {
  try {
    const out = execFileSync('curl', ['-sS', '--max-time', '10', '-w', '\n%{http_code}', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const at = out.lastIndexOf('\n');
    return { code: 0, status: Number(out.slice(at + 1)), body: out.slice(0, at) };
  } catch (e) {
    return { code: e.status, status: 0, body: '', stderr: String(e.stderr) };
  }
}
