// runtime/chain/exchange/multipart.ts: multipart/form-data bodies into name -> values (by @fastify/busboy).
import t from 'tap';
import { readMultipart } from '../../dist/runtime/chain/exchange/multipart.js';

const CT = 'multipart/form-data; boundary=XyZ';
const crlf = (s) => Buffer.from(s.replace(/\n/g, '\r\n'));
// a refused body resolves its validation error: undefined here
const parse = async (body, type = CT) => {
  const out = await readMultipart(typeof body === 'string' ? crlf(body) : body, type);
  return typeof out === 'string' ? undefined : Object.fromEntries(out);
};

const valid = `--XyZ
Content-Disposition: form-data; name="name"

Rex
--XyZ
Content-Disposition: form-data; name="photo"; filename="rex.txt"
Content-Type: text/plain

line 1
line 2
--XyZ
Content-Disposition: form-data; name="tags"

a
--XyZ
Content-Disposition: form-data; name="tags"

b
--XyZ--
`;

t.test('parts by name, repeated names collect, file contents as text', async (t) => {
  t.same(await parse(valid), { name: ['Rex'], photo: ['line 1\r\nline 2'], tags: ['a', 'b'] });
});

t.test('the boundary parameter', async (t) => {
  t.same(await parse(valid, 'multipart/form-data; boundary="XyZ"'), await parse(valid), 'quoted');
  t.same(await parse(valid, 'multipart/form-data; boundary=XyZ; charset=utf-8'), await parse(valid), 'followed by another parameter');
  t.same(await parse(valid, 'multipart/form-data; charset=utf-8; BOUNDARY=XyZ '), await parse(valid), 'anywhere, any case, trailing space');
  t.equal(await parse(valid, 'multipart/form-data'), undefined, 'no boundary');
  t.equal(await parse(valid, 'multipart/form-data; boundary=Other'), undefined, 'a boundary that never occurs');
  const dashed = valid.replaceAll('XyZ', '----WebKitFormBoundary7MA4YWxk');
  t.same(await parse(dashed, 'multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxk'), await parse(valid), 'browser boundaries');
});

t.test('edge shapes', async (t) => {
  t.same(await parse('--XyZ--'), {}, 'no parts');
  t.same(await parse('preamble text\n--XyZ\nContent-Disposition: form-data; name="a"\n\n1\n--XyZ--\nepilogue'), { a: ['1'] }, 'preamble and epilogue ignored');
  t.same(await parse('--XyZ\nContent-Disposition: form-data; name="a"\n\n\n--XyZ--'), { a: [''] }, 'empty value');
  t.same(await parse('--XyZ\nContent-Disposition: form-data; filename="x"\n\nX\n--XyZ--'), {}, 'a part without name is skipped (filename is not name)');
  t.same(await parse('--XyZ\ncontent-disposition: form-data; filename="x"; name="f"\n\nX\n--XyZ--'), { f: ['X'] }, 'header case and parameter order');
  t.same(await parse('--XyZ\nContent-Disposition: form-data; name="a"\n\nx\n\ny\n--XyZ--'), { a: ['x\r\n\r\ny'] }, 'blank lines inside a value');
  const binary = Buffer.concat([crlf('--XyZ\nContent-Disposition: form-data; name="b"\n\n'), Buffer.from([0x00, 0x41, 0xff]), crlf('\n--XyZ--')]);
  t.equal((await parse(binary)).b[0].length, 3, 'binary content read as text, length kept');
});

t.test('malformed bodies: undefined', async (t) => {
  t.equal(await parse('--XyZ\nContent-Disposition: form-data; name="a"\n\n1\n'), undefined, 'no closing delimiter');
  t.equal(await parse(''), undefined, 'empty body');
  t.equal(await parse('name=Rex&tags=a'), undefined, 'a url-encoded body');
  t.equal(await parse('{"name":"Rex"}'), undefined, 'a JSON body');
  t.equal(await readMultipart(Buffer.from(valid.replace('--XyZ--\n', '')), CT), 'malformed multipart body: parts do not follow the declared boundary', 'LF line ends: no header/content separator');
});

t.test('a part whose headers never end is left out (its field is missing, which validation names)', async (t) => {
  t.same(await parse('--XyZ\nContent-Disposition: form-data; name="a"\n1\n--XyZ--'), {}, 'no blank line after the headers');
});

t.test('a delimiter-like string inside a value', async (t) => {
  // RFC 2046: the delimiter is CRLF "--" boundary; "--XyZ" in the middle of a line is content.
  t.same(await parse('--XyZ\nContent-Disposition: form-data; name="a"\n\nvalue --XyZ inside\n--XyZ--'), { a: ['value --XyZ inside'] }, 'kept as content');
  t.same(await parse('preamble --XyZ not yet\n--XyZ\nContent-Disposition: form-data; name="a"\n\n1\n--XyZ--'), { a: ['1'] }, 'nor in a preamble');
});

t.test('at most MAX_FORM_PARTS parts, counted before parsing', async (t) => {
  const body = (n) => crlf(`${Array.from({ length: n }, (_, i) => `--XyZ\nContent-Disposition: form-data; name="p${i}"\n\n${i}\n`).join('')}--XyZ--`);
  t.equal(Object.keys(await parse(body(1000))).length, 1000, '1,000 parts are read');
  t.equal(await readMultipart(body(1001), CT), 'multipart body refused: more than 1000 parts', 'one more is refused');
});
