// compiler/ir/mount.ts: where a description is mounted.
import t from 'tap';
import { normalizeBasePath, serverBasePath } from '../../dist/compiler/ir/mount.js';

const at = (url, variables) => serverBasePath({ servers: [{ url, variables }] });

t.test('the first server URL path is the mount path', (t) => {
  t.equal(at('http://petstore.swagger.io/v1'), '/v1');
  t.equal(at('https://api.example.com/v1/'), '/v1', 'trailing slash dropped');
  t.equal(at('https://api.example.com'), '', 'no path: root');
  t.equal(at('https://api.example.com/'), '');
  t.equal(at('/api/v3'), '/api/v3', 'relative server URL');
  t.equal(at('api'), '/api', 'relative without slash');
  t.equal(at('//cdn.example.com/x/y'), '/x/y', 'protocol-relative');
  t.equal(at('http://x/a%20b/c'), '/a b/c', 'percent-decoded so it matches decoded request paths');
  t.equal(at('http://x/v1?debug=1#frag'), '/v1', 'query and fragment ignored');
  t.equal(
    serverBasePath({ servers: [{ url: 'http://one/first' }, { url: 'http://two/second' }] }),
    '/first',
    'only the first server counts',
  );
  t.end();
});

t.test('server variables use their defaults', (t) => {
  t.equal(at('https://{host}/{version}/api', { host: { default: 'x.io' }, version: { default: 'v2' } }), '/v2/api');
  t.equal(at('{scheme}://api.example.com/{base}', { scheme: { default: 'https' }, base: { default: 'v3' } }), '/v3');
  // invalid per OpenAPI (variables need a default), but then the empty segment should not survive
  t.equal(at('http://x/{missing}/api'), '/api', 'a variable without default collapses');
  t.equal(at('http://x/{port}', { port: { default: 8080 } }), '/8080', 'non-string defaults are stringified');
  t.end();
});

t.test('no usable servers: root', (t) => {
  t.equal(serverBasePath({}), '');
  t.equal(serverBasePath({ servers: [] }), '');
  t.equal(serverBasePath({ servers: 'http://x/v1' }), '');
  t.equal(serverBasePath({ servers: [{}] }), '');
  t.equal(serverBasePath({ servers: [{ url: 42 }] }), '');
  t.equal(at('http://[bad/v1'), '', 'an unparsable URL mounts at the root');
  t.end();
});

t.test('normalizeBasePath', (t) => {
  t.equal(normalizeBasePath('/v1/'), '/v1');
  t.equal(normalizeBasePath('v1'), '/v1');
  t.equal(normalizeBasePath('/'), '');
  t.equal(normalizeBasePath(''), '');
  t.equal(normalizeBasePath('  /x  '), '/x');
  t.equal(normalizeBasePath('//'), '');
  t.equal(normalizeBasePath('a/b//'), '/a/b');
  t.equal(normalizeBasePath('/api/v1'), '/api/v1');
  t.end();
});
