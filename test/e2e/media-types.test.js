// Media types of answers and requests through `mock build` and `mock serve`: a wildcard response
// is served as what it holds (JSON only when it is JSON), a `content` key that is not a media type
// is left out with a build warning, and a body sent to an operation that accepts none is 415.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';

const description = {
  openapi: '3.0.3',
  info: { title: 'media', version: '1' },
  paths: {
    '/avatar': { get: { responses: { 200: { description: 'an image', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } } } } },
    '/any-json': { get: { responses: { 200: { description: 'json', content: { '*/*': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } } } } } },
    '/any-text': { get: { responses: { 200: { description: 'text', content: { '*/*': { schema: { type: 'string', enum: ['pong'] } } } } } } },
    '/nothing': { get: { responses: { 200: { description: 'no schema', content: { '*/*': {} } } } } },
    '/described': {
      get: { responses: { 200: { description: 'a content map with a stray key', content: { description: 'ok', 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean', enum: [true] } }, required: ['ok'] } } } } } },
    },
    '/no-body': { post: { responses: { 204: { description: 'done' } } } },
  },
};

const dir = tmpdir();
writeFileSync(path.join(dir, 'media.json'), JSON.stringify(description));
const out = path.join(dir, 'out');
const built = await runMock(['build', '--spec', 'media.json', '--out', out], { cwd: dir });
const server = await startMock(['--spec', 'media.json', '--out', out], { cwd: dir });
t.teardown(() => server.stop());

t.test('wildcard responses are served as what they hold', async (t) => {
  const avatar = await fetch(`${server.url}/avatar`);
  t.equal(avatar.headers.get('content-type'), 'application/octet-stream', 'a binary string is not JSON');
  t.ok((await avatar.arrayBuffer()).byteLength > 0, 'it has a body');
  const json = await fetch(`${server.url}/any-json`);
  t.equal(json.headers.get('content-type'), 'application/json');
  t.type((await json.json()).id, 'number', 'the schema is kept and generated from');
  const text = await fetch(`${server.url}/any-text`);
  t.equal(text.headers.get('content-type'), 'text/plain');
  t.equal(await text.text(), 'pong');
  const nothing = await fetch(`${server.url}/nothing`);
  t.not(nothing.headers.get('content-type'), 'application/json', 'no schema, no example: not claimed to be JSON');
});

t.test('a content key that is not a media type is left out with a build warning', async (t) => {
  t.equal(built.code, 0);
  t.match(built.stderr, /warning: GET \/described response 200: content key "description" is not a media type; ignored/);
  const res = await fetch(`${server.url}/described`);
  t.equal(res.headers.get('content-type'), 'application/json', 'never Content-Type: description');
  t.same(await res.json(), { ok: true });
});

t.test('a body sent to an operation that accepts none is 415 in enforce mode', async (t) => {
  const res = await fetch(`${server.url}/no-body`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
  t.equal(res.status, 415);
  t.match(await res.json(), { code: 'MOCK_ERR_UNSUPPORTED_MEDIA_TYPE', detail: 'POST /no-body accepts no request body (got application/json)' });
  t.equal((await fetch(`${server.url}/no-body`, { method: 'POST' })).status, 204, 'without a body it is answered');
});
