// runtime/control/admin/router.ts: both path forms, parameters, methods, JSON bodies.
import t from 'tap';
import { AdminRouter, endpointOf, jsonBody } from '../../../dist/runtime/control/admin/router.js';
import { AdminError } from '../../../dist/runtime/control/admin/envelope.js';

t.test('endpointOf: /__mock/<name> and /__mock/api/<name> are one endpoint', async (t) => {
  t.equal(endpointOf('/__mock/mocks'), 'mocks');
  t.equal(endpointOf('/__mock/api/mocks'), 'mocks');
  t.equal(endpointOf('/__mock/api/mocks/abc/'), 'mocks/abc');
  t.equal(endpointOf('/__mock'), '');
  t.equal(endpointOf('/__mock/'), '');
  t.equal(endpointOf('/__mock/api'), '');
  t.equal(endpointOf('/__mock/apix'), 'apix', 'only a whole api segment is a prefix');
});

t.test('lookup: parameters, HEAD as GET, allowed methods', async (t) => {
  const handler = () => undefined;
  const router = new AdminRouter([
    { method: 'GET', path: 'mocks', handler },
    { method: 'POST', path: 'mocks', handler },
    { method: 'GET', path: 'mocks/{id}', handler },
    { method: 'DELETE', path: 'mocks/{id}', handler },
  ]);
  const one = router.lookup('DELETE', 'mocks/a%20b');
  t.equal(one.found.route.method, 'DELETE');
  t.same(one.found.params, { id: 'a b' }, 'percent-decoded');
  t.equal(router.lookup('HEAD', 'mocks').found.route.method, 'GET');
  t.same(router.lookup('PUT', 'mocks/x'), { allowed: ['GET', 'DELETE'] });
  t.equal(router.lookup('GET', 'nothing'), undefined);
  t.equal(router.lookup('GET', 'mocks/x/y'), undefined, 'a parameter is one segment');
  const error = t.throws(() => router.lookup('GET', 'mocks/%E0%A4%A'), 'malformed encoding is the caller’s mistake');
  t.ok(error instanceof AdminError);
  t.equal(error.status, 400);
});

t.test('jsonBody: parsed once; malformed JSON is a 400, no body is undefined', async (t) => {
  t.same(jsonBody({ body: Buffer.from('{"a":1}') })(), { a: 1 });
  t.equal(jsonBody({ body: undefined })(), undefined);
  t.equal(jsonBody({ body: Buffer.alloc(0) })(), undefined);
  const bad = jsonBody({ body: Buffer.from('{a:1}') });
  const error = t.throws(bad);
  t.equal(error.status, 400);
  t.match(error.message, /^request body is not valid JSON/);
});
