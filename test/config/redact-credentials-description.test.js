// The description of logging.redact_credentials in src/config/schema.json (what editors and the
// generated types show) names what runtime/control/logging redacts with it on: every header of
// CREDENTIAL_HEADERS and the words that make a header name a credential's. It listed four headers
// after redaction had grown to every header named like a credential.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { CREDENTIAL_HEADERS, Redaction } from '../../dist/runtime/control/logging/index.js';

const schema = JSON.parse(readFileSync(new URL('../../src/config/schema.json', import.meta.url), 'utf8'));
const description = schema.properties.logging.properties.redact_credentials.description.toLowerCase();

t.test('it names every header redacted by name', async (t) => {
  for (const name of CREDENTIAL_HEADERS) t.ok(description.includes(name), name);
});

t.test('it names the words that make a header a credential, and redaction follows them', async (t) => {
  const redaction = new Redaction({ credentials: true, names: [] });
  for (const word of ['token', 'secret', 'password', 'passwd', 'apikey', 'api-key', 'credential', 'authorization']) {
    t.ok(description.includes(word), `the description says ${word}`);
    const header = `x-my-${word}`;
    t.equal(redaction.headers({ [header]: 'value' })[header], '[redacted]', `${header} is redacted`);
  }
  for (const example of ['x-auth-token', 'x-api-key', 'x-amz-security-token']) {
    t.ok(description.includes(example), `the example ${example}`);
    t.equal(redaction.headers({ [example]: 'value' })[example], '[redacted]');
  }
});
