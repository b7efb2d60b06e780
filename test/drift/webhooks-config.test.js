// contract_diff.webhooks in mock.yaml: `mock config validate` (the real CLI, as a process) refuses
// each kind of bad entry with one line naming the key, and never prints a webhook's secret.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { runCli, tmpdir } from '../helpers/cli.js';

const dir = tmpdir();
const validate = (name, yaml) => {
  writeFileSync(path.join(dir, name), yaml);
  return runCli(['config', 'validate', '-c', name], { cwd: dir });
};
const webhook = (entry, extra = '') => `contract_diff:\n${extra}  webhooks:\n    - ${entry}\n`;

t.test('a bad webhook entry is a one-line error naming its key, exit 1', async (t) => {
  const cases = [
    [
      'url.yaml',
      webhook('{ url: "ftp://hooks.example.com/x", events: [mismatch] }'),
      'contract_diff.webhooks[0].url: expected an http(s) URL such as https://hooks.example.com/mock, got "ftp://hooks.example.com/x"',
    ],
    ['event.yaml', webhook('{ url: "https://hooks.example.com/x", events: [drift] }'), 'contract_diff.webhooks[0].events[0]: expected one of mismatch, high_severity, got "drift"'],
    ['none.yaml', webhook('{ url: "https://hooks.example.com/x", events: [] }'), 'contract_diff.webhooks[0].events: expected at least 1 item(s), got []'],
    ['nourl.yaml', webhook('{ events: [mismatch] }'), 'contract_diff.webhooks[0].url: required key is missing'],
    [
      'private.yaml',
      webhook('{ url: "http://169.254.169.254/latest", events: [high_severity], secret: SECRET-IN-YAML-1 }'),
      'contract_diff.webhooks[0].url: "http://169.254.169.254/latest" is a loopback, link-local or private address; set contract_diff.webhook_allow_private: true to send there',
    ],
    [
      'whsec.yaml',
      webhook('{ url: "https://hooks.example.com/x", events: [mismatch], secret: "whsec_SECRET-IN-YAML-2!" }'),
      'contract_diff.webhooks[0].secret: expected whsec_ followed by base64 (as Standard Webhooks libraries make it), or a secret without the whsec_ prefix',
    ],
  ];
  for (const [name, yaml, line] of cases) {
    const { code, stdout, stderr } = await validate(name, yaml);
    t.equal(code, 1, name);
    t.equal(stdout, '', name);
    t.equal(stderr, `${name}: ${line}\n`, name);
    t.notMatch(stderr, /SECRET-IN-YAML/, `${name}: the secret is not printed`);
  }
});

t.test('valid webhooks, a loopback receiver allowed by webhook_allow_private', async (t) => {
  const { code, stderr } = await validate(
    'good.yaml',
    webhook('{ url: "http://127.0.0.1:9000/hooks", events: [mismatch, high_severity], secret: "whsec_c2VjcmV0LWtleS1ieXRlcw==" }', '  webhook_allow_private: true\n'),
  );
  t.equal(stderr, '');
  t.equal(code, 0);
});
