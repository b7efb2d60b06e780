// runtime/match: client_certificate conditions (docs/tls.md) in the one condition dialect.
import t from 'tap';
import { certificateHolds, compileCertificateConditions, PatternError } from '../../../dist/runtime/match/index.js';

const certificate = { subject: 'CN=client-a,O=Acme', san: ['DNS:client-a.example', 'IP Address:127.0.0.1'], fingerprint: 'AB:CD:EF:01' };
const holds = (spec, cert = certificate, shorthand = 'exact') => certificateHolds(compileCertificateConditions(spec, 'match.client_certificate', shorthand), cert);

t.test('subject, SAN (any entry) and fingerprint (as openssl prints it, or bare lower-case hex)', async (t) => {
  t.ok(holds({ subject: 'CN=client-a,O=Acme' }), 'the exact subject');
  t.notOk(holds({ subject: 'CN=client-a' }), 'exact means whole');
  t.ok(holds({ subject: { matches: 'CN=client-a,.*' } }), 'a pattern');
  t.ok(holds({ subject: '/client-a/' }, certificate, 'route'), "custom routes' /regex/ shorthand");
  t.ok(holds({ san: 'IP Address:127.0.0.1' }), 'any SAN entry');
  t.notOk(holds({ san: 'DNS:other.example' }));
  t.ok(holds({ fingerprint: 'AB:CD:EF:01' }), 'the fingerprint with colons');
  t.ok(holds({ fingerprint: 'abcdef01' }), 'or without, in lower case');
  t.notOk(holds({ fingerprint: 'AB:CD:EF:02' }));
  t.ok(holds({ subject: { present: true }, san: 'DNS:client-a.example', fingerprint: 'abcdef01' }), 'every field must hold');
  t.notOk(holds({ subject: { present: true }, san: 'DNS:nope' }));
});

t.test('a request without a certificate has no values', async (t) => {
  // null: asked for and not shown; undefined: not asked for
  for (const none of [null, undefined]) {
    const without = (spec) => certificateHolds(compileCertificateConditions(spec, 'match.client_certificate', 'exact'), none);
    t.notOk(without({ subject: { present: true } }), `${none}: present: true fails`);
    t.ok(without({ fingerprint: { present: false } }), `${none}: present: false holds`);
    t.notOk(without({ san: 'DNS:client-a.example' }), `${none}: a SAN condition fails`);
  }
});

t.test('malformed conditions name the field', async (t) => {
  t.equal(compileCertificateConditions(undefined, 'x', 'exact'), undefined, 'nothing asked: nothing compiled');
  t.throws(
    () => compileCertificateConditions({ issuer: 'x' }, 'match.client_certificate', 'exact'),
    new PatternError('match.client_certificate.issuer: unknown field; a client certificate is matched on subject, san, fingerprint'),
  );
  t.throws(() => compileCertificateConditions({ san: { matches: 3 } }, 'match.client_certificate', 'exact'), { message: /^match\.client_certificate\.san: matches must be a pattern string/ });
  t.throws(() => compileCertificateConditions('CN=x', 'match.client_certificate', 'exact'), { message: /^match\.client_certificate must map subject, san or fingerprint to conditions/ });
});
