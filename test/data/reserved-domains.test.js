// Generated addresses use only the domains RFC 2606 reserves for examples, whichever generator
// makes them: {{faker.email}} in templates drew from gmail.com, hotmail.com and yahoo.com (and
// faker's domain names from real suffixes) while schema generation already used example domains.
import t from 'tap';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from '../helpers/cli.js';
import { runData } from './helpers.js';

const RESERVED = /(^|[.@])example\.(com|net|org)$/;
const COUNT = 200;

const hostOf = (value) => (value.includes('@') ? value.slice(value.lastIndexOf('@') + 1) : new URL(value).hostname);

function checkReserved(t, values, what) {
  const foreign = values.filter((value) => !RESERVED.test(hostOf(value)));
  t.same(foreign, [], `${what}: every domain is reserved (${values.length} values)`);
}

t.test('templates: faker e-mails, URLs and domain names', async (t) => {
  const template = JSON.stringify({
    email: '{{faker.email}}',
    internet: '{{faker.internet.email}}',
    url: '{{faker.internet.url}}',
    domain: 'https://{{faker.internet.domainName}}/',
  });
  const res = await runData(['template', '--template', template, '--count', String(COUNT)]);
  t.equal(res.code, 0, res.stderr);
  const values = JSON.parse(res.stdout);
  for (const key of ['email', 'internet', 'url', 'domain']) checkReserved(t, values.map((v) => v[key]), key);
});

t.test('schemas: format email, uri and hostname', async (t) => {
  const dir = tmpdir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const schema = path.join(dir, 'contact.json');
  const properties = { email: { type: 'string', format: 'email' }, site: { type: 'string', format: 'uri' }, host: { type: 'string', format: 'hostname' } };
  writeFileSync(schema, JSON.stringify({ type: 'object', required: Object.keys(properties), properties }));
  const res = await runData(['schema', '--schema', schema, '--count', String(COUNT)]);
  t.equal(res.code, 0, res.stderr);
  const values = JSON.parse(res.stdout);
  checkReserved(t, values.map((v) => v.email), 'email');
  checkReserved(t, values.map((v) => v.site), 'uri');
  checkReserved(t, values.map((v) => `https://${v.host}/`), 'hostname');
});
