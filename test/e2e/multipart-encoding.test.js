// A multipart body's `encoding.style` and `explode`: OpenAPI 3.0 ignores them for every media type
// but application/x-www-form-urlencoded, so a part's text is its value (ReadMe's parameters-style
// example, `POST /anything/form-data/form`: the part primitive=sample was split into ["sample"] and
// refused "body /primitive must be string"). OpenAPI 3.1 applies them to multipart/form-data too,
// and in every version they split only fields whose schema is an array.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMock, tmpdir } from '../helpers/cli.js';

const form = (style, explode) => ({ style, explode });
// the operation as ReadMe's oas-examples (3.0/yaml/parameters-style.yaml) describes it, with integer items to tell a split from a whole part
const operation = (mediaType) => ({
  post: {
    operationId: 'formData_form_nonExploded',
    requestBody: {
      content: {
        [mediaType]: {
          schema: {
            type: 'object',
            properties: {
              primitive: { type: 'string', description: 'A `form` style, non-exploded primitive.' },
              array: { type: 'array', description: 'A `form` style, non-exploded array.', items: { type: 'integer' } },
            },
          },
          encoding: { primitive: form('form', false), array: form('form', false) },
        },
      },
    },
    responses: { 200: { description: 'OK', content: { 'application/json': { example: { ok: true } } } } },
  },
});
// RFC 7578's parts as clients other than browsers write them: a part's charset, a name as a bare token, a file name in filename*, a folded header
const upload = {
  post: {
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['city', 'count', 'doc'],
            properties: { city: { type: 'string', enum: ['Mâcon'] }, count: { type: 'integer' }, doc: { type: 'string', format: 'binary' } },
          },
        },
      },
    },
    responses: { 200: { description: 'OK', content: { 'application/json': { example: { ok: true } } } } },
  },
};
const description = (openapi) => ({
  openapi,
  info: { title: 'Support for parameter serialization', version: '1.0.0' },
  paths: { '/anything/form-data/form': operation('multipart/form-data'), '/anything/form-urlencoded/form': operation('application/x-www-form-urlencoded'), '/upload': upload },
});

const dir = tmpdir();
writeFileSync(path.join(dir, 'v30.json'), JSON.stringify(description('3.0.3')));
writeFileSync(path.join(dir, 'v31.json'), JSON.stringify(description('3.1.0')));
const [v30, v31] = await Promise.all(['v30', 'v31'].map((name) => startMock(['--spec', path.join(dir, `${name}.json`), '--out', path.join(dir, `out-${name}`)])));
t.teardown(() => Promise.all([v30.stop(), v31.stop()]));

async function multipart(server, parts) {
  const body = new FormData();
  for (const [name, value] of parts) body.append(name, value);
  const res = await fetch(`${server.url}/anything/form-data/form`, { method: 'POST', body });
  return { status: res.status, text: await res.text() };
}

async function urlencoded(server, text) {
  const res = await fetch(`${server.url}/anything/form-urlencoded/form`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: text });
  return { status: res.status, text: await res.text() };
}

t.test('OpenAPI 3.0: a part is its value, whatever the encoding says', async (t) => {
  let res = await multipart(v30, [['primitive', 'sample']]);
  t.equal(res.status, 200, `primitive=sample: ${res.text}`);
  res = await multipart(v30, [['primitive', 'a,b']]);
  t.equal(res.status, 200, `primitive=a,b stays one string: ${res.text}`);
  res = await multipart(v30, [['array', '1'], ['array', '2']]);
  t.equal(res.status, 200, `repeated parts make the array: ${res.text}`);
  res = await multipart(v30, [['array', '1,2']]);
  t.equal(res.status, 400, 'a part "1,2" is not split: it is no integer');
  t.match(JSON.parse(res.text).errors[0], { location: 'body', name: '/array/0' });
});

t.test('OpenAPI 3.1: multipart/form-data follows the style, for arrays only', async (t) => {
  let res = await multipart(v31, [['primitive', 'sample']]);
  t.equal(res.status, 200, `primitive=sample: ${res.text}`);
  res = await multipart(v31, [['primitive', 'a,b']]);
  t.equal(res.status, 200, `primitive=a,b stays one string: ${res.text}`);
  res = await multipart(v31, [['array', '1,2']]);
  t.equal(res.status, 200, `array=1,2 is split as form, non-exploded: ${res.text}`);
});

t.test('application/x-www-form-urlencoded follows the style in both versions, for arrays only', async (t) => {
  for (const server of [v30, v31]) {
    let res = await urlencoded(server, 'primitive=a%2Cb&array=1%2C2');
    t.equal(res.status, 200, res.text);
    res = await urlencoded(server, 'array=1%2Cx');
    t.equal(res.status, 400, 'a split item that is no integer is refused');
  }
});

t.test('multipart parts as RFC 7578 allows them: charsets, token names, filename*, folded headers', async (t) => {
  const part = (disposition, content, type) => [`--XyZ\r\nContent-Disposition: form-data; ${disposition}\r\n${type === undefined ? '' : `Content-Type: ${type}\r\n`}\r\n`, content, '\r\n'];
  const send = async (parts) => {
    const body = Buffer.concat([...parts.flat(), '--XyZ--\r\n'].map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p))));
    const res = await fetch(`${v31.url}/upload`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=XyZ' }, body });
    return { status: res.status, detail: res.headers.get('x-mock-error-detail') };
  };
  const city = part('name="city"', 'Mâcon');
  const count = part('name="count"', '5');
  const doc = part('name="doc"; filename="notes.txt"', 'notes', 'text/plain');
  t.same(await send([city, count, doc]), { status: 200, detail: null }, 'the plain form');
  // "Mâcon" in ISO-8859-1: 0xE2 is â there, and no UTF-8 (the hand-written parser read U+FFFD)
  const latin = part('name="city"', Buffer.from([0x4d, 0xe2, 0x63, 0x6f, 0x6e]), 'text/plain; charset=iso-8859-1');
  t.same(await send([latin, count, doc]), { status: 200, detail: null }, "a field in its part's charset");
  // RFC 2183's parameter value is a token or a quoted string (the hand-written parser knew quotes only)
  t.same(await send([city, part('name=count', '5'), doc]), { status: 200, detail: null }, 'a name as a bare token');
  t.same(await send([city, count, part("name=\"doc\"; filename*=UTF-8''na%C3%AFve.txt", 'notes', 'text/plain')]), { status: 200, detail: null }, 'filename* (RFC 5987)');
  // a part header folded onto a second line (the hand-written parser read one line only and dropped the part)
  t.same(await send([city, count, part('\r\n name="doc"; filename="notes.txt"', 'notes', 'text/plain')]), { status: 200, detail: null }, 'a folded Content-Disposition');
  t.same(await send([city, count]), { status: 400, detail: "body must have required property 'doc'" }, 'a missing part is still refused');
  // a form of more than 1,000 parts is refused before it is parsed (a parser spends tens of µs a part)
  const extra = (n) => Array.from({ length: n }, (_, i) => part(`name="x${i}"`, ''));
  t.same(await send([city, count, doc, ...extra(997)]), { status: 200, detail: null }, '1,000 parts');
  t.same(await send([city, count, doc, ...extra(998)]), { status: 400, detail: 'multipart body refused: more than 1000 parts' }, '1,001 parts');
});
