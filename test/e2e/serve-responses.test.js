// Responses of `mock serve` on the bundled example: examples, generation, Prefer, Accept, methods.
import t from 'tap';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { startMock, tmpdir } from '../helpers/cli.js';

const server = await startMock(['--spec', 'examples/petstore.yaml', '--seed', '7', '--out', tmpdir()]);
t.teardown(() => server.stop());
const url = (p) => server.url + p;

const ajv = new Ajv({ strict: false });
addFormats(ajv);
const pet = {
  type: 'object',
  required: ['id', 'name', 'kind', 'created_at'],
  properties: {
    id: { type: 'integer', minimum: 1 },
    name: { type: 'string', minLength: 1, maxLength: 64 },
    kind: { enum: ['cat', 'dog', 'bird'] },
    tag: { type: 'string', maxLength: 32 },
    created_at: { type: 'string', format: 'date-time' },
    owner: { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' }, id: { type: 'string', format: 'uuid' }, phone: { type: 'string', pattern: '^\\+[1-9][0-9]{7,14}$' } } },
  },
};

t.test('the first documented example is served for its operation', async (t) => {
  const res = await fetch(url('/v1/pets/1'));
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.same(await res.json(), { id: 1, name: 'Tom', kind: 'cat', tag: 'grumpy', owner: { email: 'tom@example.com' }, created_at: '2024-01-01T00:00:00Z' });
});

t.test('a schema without examples is generated and validates against it', async (t) => {
  for (let i = 0; i < 5; i++) {
    const res = await fetch(url('/v1/pets'));
    t.equal(res.status, 200);
    const body = await res.json();
    t.ok(Array.isArray(body), 'an array of pets');
    for (const item of body) t.ok(ajv.validate(pet, item), JSON.stringify(ajv.errors));
    t.match(res.headers.get('x-next'), /^https?:\/\//, 'documented response header is generated');
  }
});

t.test('Prefer: example=<name> picks a named example; unknown names are a 404 problem', async (t) => {
  const dog = await fetch(url('/v1/pets/2'), { headers: { prefer: 'example=dog' } });
  t.equal((await dog.json()).name, 'Rex');
  const missing = await fetch(url('/v1/pets/2'), { headers: { prefer: 'example=hamster' } });
  t.equal(missing.status, 404);
  t.equal(missing.headers.get('content-type'), 'application/problem+json');
  t.match((await missing.json()).detail, /no example named "hamster".*cat, dog/);
});

t.test('Prefer: code=<status> selects a documented status; undocumented codes are a 404 problem', async (t) => {
  const notFound = await fetch(url('/v1/pets/5'), { headers: { prefer: 'code=404' } });
  t.equal(notFound.status, 404);
  t.same(await notFound.json(), { code: 404, message: 'pet not found' });
  const viaQuery = await fetch(url('/v1/pets/5?__code=404'));
  t.equal(viaQuery.status, 404);
  t.same(await viaQuery.json(), { code: 404, message: 'pet not found' });
  const undocumented = await fetch(url('/v1/pets/5'), { headers: { prefer: 'code=418' } });
  t.equal(undocumented.status, 404);
  t.match((await undocumented.json()).detail, /documents no 418 response \(documented: 200, 404\)/);
  const viaDefault = await fetch(url('/v1/pets'), { headers: { prefer: 'code=503' } });
  t.equal(viaDefault.status, 503, 'a `default` response answers any status');
  t.hasProps(await viaDefault.json(), ['code', 'message']);
});

t.test('Prefer: dynamic=true generates instead of serving the example', async (t) => {
  const res = await fetch(url('/v1/pets/1'), { headers: { prefer: 'dynamic=true' } });
  const body = await res.json();
  t.ok(ajv.validate(pet, body), JSON.stringify(ajv.errors));
  t.not(body.name, 'Tom');
  const viaQuery = await fetch(url('/v1/pets/1?__dynamic=true'));
  t.ok(ajv.validate(pet, await viaQuery.json()));
});

t.test('content negotiation by Accept, 406 when nothing fits', async (t) => {
  const xml = await fetch(url('/v1/pets/1'), { headers: { accept: 'application/xml' } });
  t.equal(xml.status, 200);
  t.match(xml.headers.get('content-type'), /application\/xml/);
  t.match(await xml.text(), /^<\?xml version="1.0" encoding="UTF-8"\?><Pet>.*<\/Pet>$/);
  const weighted = await fetch(url('/v1/pets/1'), { headers: { accept: 'application/xml;q=0.5, application/json' } });
  t.match(weighted.headers.get('content-type'), /application\/json/);
  const none = await fetch(url('/v1/pets/1'), { headers: { accept: 'text/csv' } });
  t.equal(none.status, 406);
  t.match((await none.json()).detail, /application\/json, application\/xml/);
});

t.test('status without content, HEAD, OPTIONS, 405 and 404', async (t) => {
  const del = await fetch(url('/v1/pets/1'), { method: 'DELETE' });
  t.equal(del.status, 204);
  t.equal(await del.text(), '');
  const head = await fetch(url('/v1/pets/1'), { method: 'HEAD' });
  t.equal(head.status, 200);
  t.equal(await head.text(), '');
  const options = await fetch(url('/v1/pets/1'), { method: 'OPTIONS' });
  t.equal(options.status, 204);
  t.match(options.headers.get('allow'), /DELETE, GET/);
  const put = await fetch(url('/v1/pets/1'), { method: 'PUT' });
  t.equal(put.status, 405);
  t.match(put.headers.get('allow'), /GET/);
  const nowhere = await fetch(url('/pets'));
  t.equal(nowhere.status, 404);
  t.match((await nowhere.json()).detail, /mounted under \/v1/);
});

t.test('the server keeps serving after hostile requests', async (t) => {
  const bad = await fetch(url('/v1/pets'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name": "x", ' });
  t.equal(bad.status, 400);
  t.match(bad.headers.get('x-mock-error-detail'), /malformed JSON/);
  const utf8 = await fetch(url('/v1/pets'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
  t.equal(utf8.status, 400);
  const huge = await fetch(url('/v1/pets'), { headers: { 'x-big': 'a'.repeat(64 * 1024) } }).catch((e) => e);
  t.ok(huge instanceof Error || huge.status >= 400, 'a huge header is refused');
  const traversal = await fetch(url('/v1/pets/..%2F..%2Fetc%2Fpasswd'));
  t.equal(traversal.status, 400, 'a malicious path is just an invalid parameter');
  const after = await fetch(url('/v1/pets/1'));
  t.equal(after.status, 200, 'still serving');
});
