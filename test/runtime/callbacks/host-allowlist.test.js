// runtime/callbacks HostAllowlist: which hosts callbacks and webhooks may reach (callbacks.allowed_hosts).
import t from 'tap';
import { DEFAULT_ALLOWED_HOSTS, HostAllowlist, allowlistEntryProblem, checkCallbacks } from '../../../dist/runtime/callbacks/index.js';

t.test('the default: this machine only', async (t) => {
  const list = new HostAllowlist(DEFAULT_ALLOWED_HOSTS);
  for (const host of ['localhost', 'LOCALHOST.', '127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) t.ok(list.allowsHost(host), host);
  for (const host of ['example.com', '10.0.0.1', '169.254.169.254', '::ffff:169.254.169.254', 'fe80::1', '0.0.0.0', 'localhost.example.com']) t.notOk(list.allowsHost(host), host);
  for (const address of ['127.0.0.1', '::1']) t.ok(list.allowsAddress(address), `${address} resolved`);
  for (const address of ['10.1.1.1', '169.254.169.254', '192.168.0.1', 'fd00::1', '0.0.0.0']) t.notOk(list.allowsAddress(address), `${address} resolved`);
  t.ok(list.allowsAddress('93.184.216.34'), 'a public address a listed name resolves to');
});

t.test('names, wildcards, addresses and ranges', async (t) => {
  const list = new HostAllowlist(['hooks.example.com', '*.partner.test', '10.1.0.0/16', 'fd00::/8', '192.0.2.7']);
  t.ok(list.allowsHost('hooks.example.com'));
  t.notOk(list.allowsHost('evil-hooks.example.com'), 'a name is exact');
  t.ok(list.allowsHost('a.b.partner.test'), 'below a wildcard');
  t.notOk(list.allowsHost('partner.test'), 'a wildcard is below its domain, not the domain');
  t.notOk(list.allowsHost('xpartner.test'));
  t.ok(list.allowsHost('10.1.200.3'));
  t.notOk(list.allowsHost('10.2.0.1'));
  t.ok(list.allowsHost('fd12::5'));
  t.ok(list.allowsHost('192.0.2.7'));
  t.ok(list.allowsAddress('10.1.9.9'), 'a private address inside a listed range');
  t.notOk(list.allowsAddress('127.0.0.1'), 'loopback, not listed');
  t.ok(new HostAllowlist(['*']).allowsHost('anything.example'), '* is any name');
  t.notOk(new HostAllowlist(['*']).allowsHost('10.0.0.1'), '* is names, not addresses');
});

t.test('entries that are none of these are named', async (t) => {
  for (const entry of ['10.0.0.0/33', 'fd00::/129', 'exa mple.com', 'http://x', '10.0.0.0/x']) t.type(allowlistEntryProblem(entry), 'string', entry);
  t.throws(() => new HostAllowlist(['10.0.0.0/33']), /callbacks\.allowed_hosts: "10\.0\.0\.0\/33" is not a CIDR range/);
  t.same(checkCallbacks({ allowed_hosts: ['localhost', 'a b'], webhooks: { secret: 'whsec_***' } }), [
    'callbacks.allowed_hosts[1]: "a b" is not a host name, *.domain, an address or a CIDR range',
    'callbacks.webhooks.secret: expected whsec_ followed by base64 (as Standard Webhooks libraries make it), or a secret without the whsec_ prefix',
  ]);
  t.same(checkCallbacks({ allowed_hosts: ['[::1]', '*.x.test'], webhooks: { secret: 'plain text' } }), []);
});
