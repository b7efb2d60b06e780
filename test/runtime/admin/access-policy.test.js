// runtime/admin/access-policy.ts: the Host (DNS rebinding) and Origin (cross-site) rules.
import t from 'tap';
import { AccessPolicy, DEFAULT_ACCESS } from '../../../dist/runtime/admin/access-policy.js';

const defaults = new AccessPolicy(DEFAULT_ACCESS);

t.test('Host: this machine and IP literals by default', async (t) => {
  for (const host of [undefined, '', 'localhost', 'localhost:9080', 'LOCALHOST:1', 'app.localhost:3000', '127.0.0.1:9080', '10.1.2.3', '[::1]:9080', '[fe80::1]', 'localhost.']) {
    t.ok(defaults.hostAllowed(host), `${host} allowed`);
  }
  for (const host of ['evil.example', 'evil.example:9080', 'localhost.evil.example', '127.0.0.1.nip.io:9080', 'mock', '[::1', 'localhost:x', '[::1]x']) {
    t.notOk(defaults.hostAllowed(host), `${host} refused`);
  }
});

t.test('Host: allowed_hosts names, domains and *', async (t) => {
  const policy = new AccessPolicy({ allowedHosts: ['mock.internal', '.example.com'], allowedOrigins: [] });
  t.ok(policy.hostAllowed('mock.internal:3000'));
  t.ok(policy.hostAllowed('MOCK.INTERNAL'));
  t.ok(policy.hostAllowed('example.com'), 'a .domain entry covers the domain itself');
  t.ok(policy.hostAllowed('a.b.example.com:8080'), 'and its subdomains');
  t.notOk(policy.hostAllowed('badexample.com'));
  t.notOk(policy.hostAllowed('mock.internal.evil'));
  t.ok(new AccessPolicy({ allowedHosts: ['*'], allowedOrigins: [] }).hostAllowed('anything.at.all'));
  t.throws(() => new AccessPolicy({ allowedHosts: ['http://x'], allowedOrigins: [] }), /admin.allowed_hosts: "http:\/\/x" is not a host name/);
});

t.test('Origin: loopback pages on any port by default, and the server own origin', async (t) => {
  for (const origin of ['http://localhost:5173', 'http://localhost', 'http://127.0.0.1:9080', 'http://[::1]:3000']) {
    t.ok(defaults.originAllowed(origin, 'localhost:9080'), `${origin} allowed`);
  }
  for (const origin of ['https://evil.example', 'null', 'http://localhost.evil.example', 'https://localhost:5173', 'http://127.0.0.2:80', 'file://', 'not an origin']) {
    t.notOk(defaults.originAllowed(origin, 'localhost:9080'), `${origin} refused`);
  }
  t.ok(defaults.originAllowed('http://192.168.1.5:9080', '192.168.1.5:9080'), 'the page the admin serves itself, reached by a LAN address');
  t.ok(defaults.originAllowed('http://dev.box', 'dev.box'), 'same host, default port on both sides');
  t.notOk(defaults.originAllowed('http://192.168.1.5:9081', '192.168.1.5:9080'), 'another port is another origin');
  t.notOk(defaults.originAllowed('http://evil.example', undefined));
});

t.test('Origin: configured entries', async (t) => {
  const policy = new AccessPolicy({ allowedHosts: [], allowedOrigins: ['https://dash.example.com', 'http://tools.lan:*', 'https://*.corp.example', 'http://[fd00::1]:8080'] });
  t.ok(policy.originAllowed('https://dash.example.com', undefined));
  t.ok(policy.originAllowed('https://dash.example.com:443', undefined), 'the default port spelled out');
  t.notOk(policy.originAllowed('http://dash.example.com', undefined), 'the scheme counts');
  t.notOk(policy.originAllowed('https://dash.example.com:8443', undefined), 'an entry without port means the default one');
  t.ok(policy.originAllowed('http://tools.lan:1234', undefined));
  t.ok(policy.originAllowed('https://a.corp.example', undefined));
  t.notOk(policy.originAllowed('https://corp.example', undefined), '*. means subdomains only');
  t.ok(policy.originAllowed('http://[fd00::1]:8080', undefined));
  t.notOk(policy.originAllowed('http://localhost:5173', undefined), 'configuring replaces the defaults');
  t.ok(new AccessPolicy({ allowedHosts: [], allowedOrigins: ['*'] }).originAllowed('https://anyone.example', undefined));
  for (const bad of ['localhost:5173', 'http://', 'http://a b', 'http://x:port', 'http://[zz::1]']) {
    t.throws(() => new AccessPolicy({ allowedHosts: [], allowedOrigins: [bad] }), /admin.cors.allowed_origins: .* is not an origin/, bad);
  }
});
