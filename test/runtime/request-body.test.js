// runtime/terminal/openapi/request-body.ts: which declared media type a request body uses, and parsing it for validation.
import t from 'tap';
import { readMultipart } from '../../dist/runtime/chain/exchange/multipart.js';
import { findContent, parseBody } from '../../dist/runtime/terminal/openapi/request-body.js';

const meta = (type, format, shape = null, encoding = null) => ({ type, format, validator: null, shape, encoding });
const contents = [meta('application/json', 'json'), meta('application/x-www-form-urlencoded', 'form'), meta('text/*', 'text'), meta('*/*', 'json')];

t.test('findContent', (t) => {
  t.equal(findContent(contents, 'application/json'), 0);
  t.equal(findContent(contents, 'Application/JSON; charset=utf-8'), 0, 'parameters and case');
  t.equal(findContent(contents, 'application/x-www-form-urlencoded'), 1);
  t.equal(findContent(contents, 'text/csv'), 2, 'major wildcard');
  t.equal(findContent(contents, 'image/png'), 3, 'full wildcard');
  t.equal(findContent(contents.slice(0, 2), 'image/png'), -1, '415');
  t.equal(findContent(contents, undefined), 0, 'no content type: the first');
  t.equal(findContent(contents, ''), 0);
  t.equal(findContent([meta('*/*', 'json'), meta('application/json', 'json')], 'application/json'), 1, 'an exact type beats an earlier wildcard');
  t.equal(findContent([meta('application/json; charset=utf-8', 'json')], 'application/json'), 0, 'declared parameters ignored');
  t.equal(findContent([], 'application/json'), -1);
  t.end();
});

t.test('parseBody: JSON', (t) => {
  t.same(parseBody(meta('application/json', 'json'), Buffer.from('{"a":[1,true]}'), 'application/json'), { ok: true, value: { a: [1, true] } });
  const bad = parseBody(meta('application/json', 'json'), Buffer.from('{"a":'), 'application/json');
  t.equal(bad.ok, false);
  t.match(bad.error, /^malformed JSON body: /);
  t.same(parseBody(meta('text/plain', 'text'), Buffer.from('hi'), 'text/plain'), { ok: true, value: undefined }, 'other formats are not parsed');
  t.end();
});

t.test('parseBody: url-encoded fields coerced to their kinds', (t) => {
  const m = meta('application/x-www-form-urlencoded', 'form', { object: { age: 'integer', ok: 'boolean', tags: { array: 'integer' }, meta: { object: {} }, price: 'number' } });
  const parsed = parseBody(m, Buffer.from('name=Rex+Dog&age=3&ok=true&tags=1&tags=x&meta=%7B%22a%22%3A1%7D&price=2.5&age=9'), 'application/x-www-form-urlencoded');
  t.same(parsed, { ok: true, value: { name: 'Rex Dog', age: 3, ok: true, tags: [1, 'x'], meta: { a: 1 }, price: 2.5 } });
  t.same(parseBody(m, Buffer.from('meta=not-json'), '').value, { meta: 'not-json' }, 'object fields that are not JSON stay strings');
  t.same(parseBody(m, Buffer.from(''), '').value, {});
  t.same(parseBody(meta('x', 'form', null), Buffer.from('a=1'), '').value, { a: '1' }, 'no field kinds: strings');
  t.end();
});

t.test('parseBody: the bracket convention, encoding, unions', (t) => {
  const item = { object: { price: 'integer', quantity: 'integer' } };
  const shape = {
    object: {
      metadata: { object: {}, rest: 'string' },
      items: { array: item },
      expand: { array: 'string' },
      created: { oneOf: [{ object: { gt: 'integer' } }, 'integer'] },
      ids: { array: 'integer' },
      cfg: { object: { a: 'integer' } },
    },
  };
  const m = meta('application/x-www-form-urlencoded', 'form', shape, { ids: { style: 'pipeDelimited', explode: false }, cfg: { contentType: 'application/json' } });
  const body = 'metadata[order]=6735&items[0][price]=5&items[0][quantity]=2&items[1][price]=7&expand[]=a&expand[]=b&created[gt]=1&ids=1|2|3&cfg=%7B%22a%22%3A2%7D';
  t.same(parseBody(m, Buffer.from(body), '').value, {
    metadata: { order: '6735' },
    items: [{ price: 5, quantity: 2 }, { price: 7 }],
    expand: ['a', 'b'],
    created: { gt: 1 },
    ids: [1, 2, 3],
    cfg: { a: 2 },
  });
  t.same(parseBody(m, Buffer.from('created=12&expand=a'), '').value, { created: 12, expand: ['a'] }, 'the scalar branch of a union; one value for an array');
  for (const body of ['__proto__[polluted]=1', 'a[constructor][prototype][x]=1', '__proto__=%7B%22a%22%3A1%7D']) {
    t.match(parseBody(m, Buffer.from(body), ''), { ok: false, error: /is not accepted as a name/ }, `${body}: refused`);
  }
  t.equal({}.polluted, undefined);
  t.end();
});

t.test('parseBody: multipart (its parts read by readMultipart, as Exchange.readParts does)', async (t) => {
  const m = meta('multipart/form-data', 'multipart', { object: { count: 'integer', files: { array: 'string' } } });
  const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="count"\r\n\r\n5\r\n--b\r\nContent-Disposition: form-data; name="files"; filename="a"\r\n\r\nA\r\n--b\r\nContent-Disposition: form-data; name="files"; filename="b"\r\n\r\nB\r\n--b--\r\n');
  const parse = async (type) => parseBody(m, body, await readMultipart(body, type));
  t.same(await parse('multipart/form-data; boundary=b'), { ok: true, value: { count: 5, files: ['A', 'B'] } });
  t.same(await parse('multipart/form-data; boundary=c'), { ok: false, error: 'malformed multipart body: parts do not follow the declared boundary' });
  t.same(await parse('multipart/form-data'), { ok: false, error: 'malformed multipart body: parts do not follow the declared boundary' }, 'no boundary');
});

t.test('parseBody: an encoding style splits array fields only; fields that may not be empty', (t) => {
  const m = { ...meta('application/x-www-form-urlencoded', 'form', { object: { primitive: 'string', ids: { array: 'integer' } } }, { primitive: { style: 'form', explode: false }, ids: { style: 'form', explode: false } }), nonEmpty: ['primitive'] };
  t.same(parseBody(m, Buffer.from('primitive=a%2Cb&ids=1%2C2'), ''), { ok: true, value: { primitive: 'a,b', ids: [1, 2] } }, 'a string keeps its commas');
  t.same(parseBody(m, Buffer.from('primitive&ids=1'), ''), {
    ok: true,
    value: { primitive: '', ids: [1] },
    issues: [{ location: 'body', name: '/primitive', message: 'body /primitive must not be empty (its allowEmptyValue is false)', keyword: 'allowEmptyValue' }],
  });
  t.same(parseBody(m, Buffer.from('ids='), '').issues, undefined, 'only the fields listed');
  t.end();
});
