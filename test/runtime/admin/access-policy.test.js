// runtime/control/admin/access-policy.ts: the Host (DNS rebinding) and Origin (cross-site) rules.
import t from 'tap';
import { AccessPolicy, DEFAULT_ACCESS } from '../../../dist/runtime/control/admin/access-policy.js';

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
  for (const origin of ['http://localhost:5173', 'http://localhost', 'http://127.0.0.1:9080', 'http://[::1]:3000', 'https://localhost:5173', 'https://[::1]:8443']) {
    t.ok(defaults.originAllowed(origin, 'localhost:9080'), `${origin} allowed`);
  }
  for (const origin of ['https://evil.example', 'null', 'http://localhost.evil.example', 'https://localhost.evil.example', 'http://127.0.0.2:80', 'file://', 'not an origin']) {
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

t.test('Origin: null and unparsable origins are foreign even when * allows any', async (t) => {
  const any = new AccessPolicy({ allowedHosts: [], allowedOrigins: ['*'] });
  t.ok(any.originAllowed('https://anyone.example', undefined));
  for (const origin of ['null', 'not an origin']) t.notOk(any.originAllowed(origin, 'localhost:9080'), `${origin} refused`);
});

t.test('Origin: a port this process serves mocks on is never trusted, under any name', async (t) => {
  const ports = new Set();
  const policy = new AccessPolicy({ allowedHosts: [], allowedOrigins: [...DEFAULT_ACCESS.allowedOrigins, 'http://dash.example:3000', '*'] }, () => ports);
  const origins = ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://app.localhost:3000', 'http://192.168.1.5:3000', 'http://dash.example:3000', 'https://localhost:3000'];
  for (const origin of origins) t.ok(policy.originAllowed(origin, 'localhost:9080'), `${origin} allowed while no mock listens on 3000`);
  ports.add(3000); // read at each request: servers listen after the policy is made (port 0)
  for (const origin of origins) t.notOk(policy.originAllowed(origin, 'localhost:9080'), `${origin} refused once a mock listens on 3000, explicit entries and * included`);
  t.notOk(policy.originAllowed('http://localhost:3000', 'localhost:3000'), 'the own-origin rule does not save it (the management router on the mock port)');
  t.ok(policy.originAllowed('http://localhost:3001', 'localhost:9080'), 'another port is another matter');
  ports.add(80);
  t.notOk(policy.originAllowed('http://localhost', 'localhost:9080'), 'a default port counts as that port');
});

t.test('Origin: the admin embedded in a mock server trusts its own origin only', async (t) => {
  const policy = new AccessPolicy(DEFAULT_ACCESS, () => new Set([3000]));
  t.ok(policy.originAllowed('http://localhost:3000', 'localhost:3000', true), 'the embedded admin page (mock answers there are sandboxed)');
  t.notOk(policy.originAllowed('http://127.0.0.1:3000', 'localhost:3000', true), 'another name for the port is another origin');
  t.notOk(policy.originAllowed('http://localhost:3000', 'localhost:3000', false), 'not embedded: refused');
  t.notOk(policy.originAllowed('null', 'localhost:3000', true), 'a sandboxed mock answer says null: refused');
});

t.test('the admin page (and its token) is readable by origins named exactly', async (t) => {
  const policy = new AccessPolicy(
    { allowedHosts: [], allowedOrigins: ['http://localhost:*', 'https://*.corp.example', 'https://dash.example.com', 'http://localhost:5173', 'http://localhost:3000'] },
    () => new Set([3000]),
  );
  t.ok(policy.pageReadableBy('https://dash.example.com'));
  t.ok(policy.pageReadableBy('http://localhost:5173'));
  t.notOk(policy.pageReadableBy('http://localhost:5174'), 'a port pattern allows the API, not the token');
  t.notOk(policy.pageReadableBy('https://a.corp.example'), 'nor does a subdomain pattern');
  t.notOk(policy.pageReadableBy('http://localhost:3000'), 'nor an exact entry on a mock port');
  t.notOk(new AccessPolicy({ allowedHosts: [], allowedOrigins: ['*'] }).pageReadableBy('https://dash.example.com'), 'nor *');
  t.notOk(policy.pageReadableBy('null'));
});
