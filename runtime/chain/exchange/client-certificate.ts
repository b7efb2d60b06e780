/** The client's TLS certificate, as a server that asked for it (server.tls.client_auth) read it from the connection. */
export interface ClientCertificate {
  /** Whether it chains to server.tls.ca (else the system's authorities). */
  authorized: boolean;
  /** `CN=client,O=Acme`: the subject's attributes in certificate order. */
  subject: string;
  /** subjectAltName entries as OpenSSL prints them: `DNS:client.example`, `IP Address:127.0.0.1`, `URI:spiffe://…`, `email:…`. */
  san: string[];
  /** SHA-256 fingerprint: upper-case hex pairs joined by colons, as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint: string;
}
