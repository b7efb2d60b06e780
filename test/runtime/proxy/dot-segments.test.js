// runtime/chain/proxy: which request paths the proxy refuses before joining them to the upstream's.
import t from 'tap';
import { hasDotSegment } from '../../../dist/runtime/chain/proxy/dot-segments.js';

t.test('dot segments in every spelling an upstream or a URL parser resolves', async (t) => {
  for (const path of ['/..', '/a/..', '/a/../b', '/a/./b', '/a/.', '/%2e%2e/b', '/%2E%2e/b', '/%2E./b', '/.%2e/b', '/%2e/b', '/%252e%252e/b', '/a\\..\\b', '/a/..%5cb', '/a%5c..%5cb', '/a/..%2fb', '/a/..;x=1/b', '/a/.;x/b']) {
    t.ok(hasDotSegment(path), path);
  }
});

t.test('names with dots, and malformed escapes, are no dot segments', async (t) => {
  for (const path of ['/', '/a', '/a/b.json', '/.well-known/x', '/a/...', '/a/..b', '/a/b..', '/a/%2e%2e%2e', '/a/%zz/..x', '/a/%2', '/a;..']) {
    t.notOk(hasDotSegment(path), path);
  }
});
