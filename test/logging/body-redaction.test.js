// Redaction of the bodies the request log keeps (runtime/control/logging/redaction.ts bodyText):
// which JSON members and form fields are secrets, bodies cut short, and a scan that stays linear
// whatever a client sends.
import t from 'tap';
import { Redaction } from '../../dist/runtime/control/logging/index.js';

const redaction = new Redaction({ credentials: true, names: ['X-Tenant-Secret', 'pin'] });
const json = (value) => redaction.bodyText(JSON.stringify(value), 'application/json; charset=utf-8');

t.test('JSON: members named like credentials, at any depth, in any spelling', async (t) => {
  const shown = JSON.parse(
    json({ user: 'tom', password: 'p', accessToken: 't', refresh_token: 'r', 'api-key': 'k', clientSecret: 's', PIN: 1234, list: [{ secret: 'x', ok: true }], tokens: 3, note: 'password' }),
  );
  t.same(shown, { user: 'tom', password: '[redacted]', accessToken: '[redacted]', refresh_token: '[redacted]', 'api-key': '[redacted]', clientSecret: '[redacted]', PIN: '[redacted]', list: [{ secret: '[redacted]', ok: true }], tokens: 3, note: 'password' });
  t.equal(redaction.bodyText('{"pass\\u0077ord" : "p"}', 'application/vnd.api+json'), '{"pass\\u0077ord" : "[redacted]"}', 'an escaped name, spaces around the colon, a +json type');
  t.equal(redaction.bodyText('{"a":"x\\"password\\": \\"y"}', 'application/json'), '{"a":"x\\"password\\": \\"y"}', 'a name inside a string value is text, not a member');
  t.equal(new Redaction({ credentials: false, names: [] }).bodyText('{"password":"p"}', 'application/json'), '{"password":"p"}', 'redact_credentials: false shows them');
});

t.test('a body cut short is redacted up to where it ends', async (t) => {
  t.equal(redaction.bodyText('{"name":"a","password":"hunt', 'application/json'), '{"name":"a","password":"[redacted]"');
  t.equal(redaction.bodyText('{"token":"ab\\', 'application/json'), '{"token":"[redacted]"', 'ending in a lone backslash');
});

t.test('forms: fields named like credentials; other media types as they are', async (t) => {
  t.equal(redaction.bodyText('user=tom&client_secret=s&pin=1&x', 'application/x-www-form-urlencoded'), 'user=tom&client_secret=%5Bredacted%5D&pin=%5Bredacted%5D&x');
  t.equal(redaction.bodyText('password=p', 'text/plain'), 'password=p');
  t.equal(redaction.bodyText('{"password":"p"}', undefined), '{"password":"p"}', 'no media type: left alone');
});

t.test('multipart form data: secret fields, the rest as sent', async (t) => {
  const type = 'multipart/form-data; boundary=XyZ';
  const body = ['--XyZ', 'Content-Disposition: form-data; name="user"', '', 'tom', '--XyZ', 'Content-Disposition: form-data; name="password"', 'Content-Type: text/plain', '', 'hunter2', '--XyZ--', ''].join('\r\n');
  t.equal(redaction.bodyText(body, type), body.replace('hunter2', '[redacted]'));
  t.equal(redaction.bodyText(body.slice(0, body.indexOf('hunter2') + 3), type), `${body.slice(0, body.indexOf('hunter2'))}[redacted]`, 'cut short inside the secret');
});

t.test('the scan is linear: an adversarial body costs what a plain one of its size does', async (t) => {
  const size = 64 * 1024;
  // the best of seven runs: a loaded machine's pauses fall in the others
  const time = (text) => {
    let best = Infinity;
    for (let i = 0; i < 7; i++) {
      const start = performance.now();
      redaction.bodyText(text, 'application/json');
      best = Math.min(best, performance.now() - start);
    }
    return best;
  };
  const plain = `{"a":"${'x'.repeat(size)}"}`;
  // unterminated strings full of escaped quotes and backslashes: what backtracks in a naive pattern
  const hostile = `"${'\\"'.repeat(size / 2)}`;
  const colons = `{"password"${' '.repeat(size)}`;
  time(plain);
  const baseline = time(plain);
  for (const [name, text] of [['escaped quotes', hostile], ['spaces before no colon', colons]]) {
    const spent = time(text);
    t.ok(spent < Math.max(baseline, 0.5) * 20, `${name}: ${spent.toFixed(1)} ms, plain ${baseline.toFixed(1)} ms`);
  }
});
