import { PatternError, compileCondition, holds, holdsForAny, type Condition, type Shorthand } from '../../common/patterns/index.js';
import { show } from './show.js';

/** What a rule may ask of the client's TLS certificate (server.tls.client_auth request or require): each a condition of the one dialect. */
export interface CertificateMatchSpec {
  /** `CN=client,O=Acme`. */
  subject?: unknown;
  /** Holds when any subjectAltName entry does (`DNS:client.example`, `IP Address:127.0.0.1`, `URI:spiffe://…`). */
  san?: unknown;
  /** SHA-256, upper-case hex pairs joined by colons as openssl prints it; also tried without the colons, in lower case. */
  fingerprint?: unknown;
}

/** The certificate as the conditions read it (the exchange's ClientCertificate). */
export interface MatchableCertificate {
  subject: string;
  san: readonly string[];
  fingerprint: string;
}

export interface CertificateConditions {
  subject?: Condition;
  san?: Condition;
  fingerprint?: Condition;
}

const FIELDS = ['subject', 'san', 'fingerprint'] as const;

/** undefined when nothing is asked; throws PatternError naming the field (`match.client_certificate.san: …`). */
export function compileCertificateConditions(spec: unknown, where: string, shorthand: Shorthand): CertificateConditions | undefined {
  if (spec === undefined) return undefined;
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) throw new PatternError(`${where} must map subject, san or fingerprint to conditions (got ${show(spec)})`);
  const compiled: CertificateConditions = {};
  for (const [field, condition] of Object.entries(spec)) {
    if (!(FIELDS as readonly string[]).includes(field)) throw new PatternError(`${where}.${field}: unknown field; a client certificate is matched on ${FIELDS.join(', ')}`);
    try {
      compiled[field as (typeof FIELDS)[number]] = compileCondition(condition, shorthand);
    } catch (e) {
      if (e instanceof PatternError) throw new PatternError(`${where}.${field}: ${e.message}`);
      throw e;
    }
  }
  return compiled;
}

/**
 * Hot path: every condition holds for the certificate; a request without one (plain HTTP, a server
 * that does not ask, a client that showed none) has no values, so only `{present: false}` holds.
 */
export function certificateHolds(conditions: CertificateConditions, certificate: MatchableCertificate | null | undefined): boolean {
  const { subject, san, fingerprint } = conditions;
  if (subject !== undefined && !holds(subject, certificate?.subject)) return false;
  if (san !== undefined && !holdsForAny(san, certificate?.san)) return false;
  if (fingerprint === undefined) return true;
  if (certificate == null) return fingerprint.absent;
  return fingerprint.test(certificate.fingerprint) || fingerprint.test(certificate.fingerprint.replace(/:/g, '').toLowerCase());
}
