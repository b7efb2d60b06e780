// response.caching through the CLI: generated answers kept and marked X-Mock-Cache, keyed by what
// their templates read, expired after ttl_seconds, held under max_size_mb (least recently used
// out first), off by default; validation, security, runtime mocks and chaos stay in front of it.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, startMock, tmpdir } from '../helpers/cli.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');

const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const json = (example) => ({ 200: { description: 'ok', content: { 'application/json': { example } } } });
// served at / (no servers entry); petstore at /v1
const description = {
  openapi: '3.0.3',
  info: { title: 'response cache', version: '1.0.0' },
  paths: {
    '/items/{id}': {
      get: {
        parameters: [id, { name: 'q', in: 'query', schema: { type: 'string' } }, { name: 'other', in: 'query', schema: { type: 'string' } }],
        responses: json({ id: '{{request.path.id}}', q: '{{request.query.q}}', tenant: '{{request.header.x-tenant}}', n: '{{randInt 1 1000000000}}' }),
      },
    },
    // about 400 kB each: two fit in max_size_mb 1, three do not
    '/blobs/{id}': { get: { parameters: [id], responses: json({ id: '{{request.path.id}}', fill: 'x'.repeat(400_000) }) } },
    '/echo': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: json({ name: '{{request.body.name}}', n: '{{randInt 1 1000000000}}' }),
      },
    },
    '/secure': {
      get: {
        security: [{ key: [] }],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } } } },
      },
    },
  },
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
};

/** `mock serve` on petstore and the description above, with `caching` as response.caching (none: the default). */
async function serve(t, caching) {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'cache.json'), JSON.stringify(description));
  const config = [`specs: [${JSON.stringify(petstore)}, cache.json]`, ...(caching === undefined ? [] : [`response: { caching: ${caching} }`])].join('\n');
  writeFileSync(path.join(dir, 'mock.yaml'), config);
  const server = await startMock(['--response-template-expand', '--admin-embed'], { cwd: dir });
  t.teardown(() => server.stop());
  return server;
}

async function get(server, url, headers = {}) {
  const response = await fetch(`${server.url}${url}`, { headers });
  return { status: response.status, cache: response.headers.get('x-mock-cache'), next: response.headers.get('x-next'), text: await response.text() };
}

const api = (server, endpoint, method, body) =>
  fetch(`${server.url}/__mock/api/${endpoint}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));

const cached = await serve(t, '{ enabled: true, max_size_mb: 1 }');

t.test('a generated answer: miss, then the same answer as a hit, generated headers included', async (t) => {
  const first = await get(cached, '/v1/pets?limit=5');
  t.equal(first.status, 200);
  t.equal(first.cache, 'miss');
  const second = await get(cached, '/v1/pets?limit=5');
  t.equal(second.cache, 'hit');
  t.equal(second.text, first.text, 'the same body');
  t.ok(first.next, 'the generated x-next header');
  t.equal(second.next, first.next, 'and the same x-next');
  t.equal((await get(cached, '/v1/pets?limit=7')).cache, 'hit', 'a value no template reads is not part of the key');
  t.equal((await get(cached, '/v1/pets/1')).cache, null, 'a pre-serialised example is not cached: it costs nothing to make');
});

t.test('the key holds the path parameters, query values and headers the template reads', async (t) => {
  const read = async (url, headers) => {
    const answer = await get(cached, url, headers);
    return { cache: answer.cache, body: JSON.parse(answer.text) };
  };
  const first = await read('/items/1?q=a', { 'x-tenant': 'acme' });
  t.equal(first.cache, 'miss');
  t.same({ ...first.body, n: 0 }, { id: '1', q: 'a', tenant: 'acme', n: 0 });
  const again = await read('/items/1?q=a&other=x', { 'x-tenant': 'acme' });
  t.equal(again.cache, 'hit', 'a query value the template does not read changes nothing');
  t.equal(again.body.n, first.body.n, 'the random token is kept with the answer');
  const byPath = await read('/items/2?q=a', { 'x-tenant': 'acme' });
  t.equal(byPath.cache, 'miss', 'another path parameter');
  t.equal(byPath.body.id, '2');
  const byQuery = await read('/items/1?q=b', { 'x-tenant': 'acme' });
  t.equal(byQuery.cache, 'miss', 'another query value');
  t.equal(byQuery.body.q, 'b');
  const byHeader = await read('/items/1?q=a', { 'x-tenant': 'other' });
  t.equal(byHeader.cache, 'miss', 'another header value');
  t.equal(byHeader.body.tenant, 'other');
  t.equal((await read('/items/1?q=a')).cache, 'miss', 'the header absent is a value of its own');
  t.equal((await read('/items/2?q=a', { 'x-tenant': 'acme' })).cache, 'hit');
});

t.test('a template that reads the request body is not cached', async (t) => {
  await get(cached, '/items/9');
  t.equal((await get(cached, '/items/9')).cache, 'hit', 'one that reads the path is');
  const post = () => fetch(`${cached.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex"}' });
  const [a, b] = [await post(), await post()];
  t.equal(a.headers.get('x-mock-cache'), null);
  t.equal(b.headers.get('x-mock-cache'), null);
  t.not((await a.json()).n, (await b.json()).n, 'made for each request');
});

t.test('max_size_mb: the least recently used answers go first', async (t) => {
  t.equal((await get(cached, '/blobs/1')).cache, 'miss');
  t.equal((await get(cached, '/blobs/2')).cache, 'miss');
  t.equal((await get(cached, '/blobs/1')).cache, 'hit', 'two fit; /blobs/2 is now the least recently used');
  t.equal((await get(cached, '/blobs/3')).cache, 'miss', 'the third does not fit with both');
  t.equal((await get(cached, '/blobs/1')).cache, 'hit', 'the recently used one stayed');
  t.equal((await get(cached, '/blobs/2')).cache, 'miss', 'the least recently used one went');
});

t.test('validation and security still check every request', async (t) => {
  await get(cached, '/v1/pets?limit=5');
  t.equal((await get(cached, '/v1/pets?limit=5')).cache, 'hit');
  const invalid = await get(cached, '/v1/pets?limit=abc');
  t.equal(invalid.status, 400, 'an invalid request is refused');
  t.equal(invalid.cache, null);
  const key = { 'x-api-key': 'k' };
  t.equal((await get(cached, '/secure', key)).cache, 'miss');
  t.equal((await get(cached, '/secure', key)).cache, 'hit');
  const anonymous = await get(cached, '/secure');
  t.equal(anonymous.status, 401, 'a request without credentials is refused');
  t.equal(anonymous.cache, null);
});

t.test('a runtime mock and a chaos fault answer in front of a cached route', async (t) => {
  await get(cached, '/v1/pets?limit=5');
  const kept = await get(cached, '/v1/pets?limit=5');
  t.equal(kept.cache, 'hit');
  const mock = await api(cached, 'mocks', 'POST', { method: 'GET', path: '/v1/pets', status_code: 200, response: { body: { mocked: true } } });
  t.equal(mock.status, 201);
  const mocked = await get(cached, '/v1/pets?limit=5');
  t.same(JSON.parse(mocked.text), { mocked: true }, 'the runtime mock wins');
  t.equal(mocked.cache, null);
  t.equal((await api(cached, `mocks/${mock.body.data.id}`, 'DELETE')).status, 200);

  const fault = await api(cached, 'route-chaos', 'PUT', { route: 'GET /v1/pets', fault_injection: { enabled: true, probability: 1, fault_types: [{ type: 'http_error', status_code: 503 }] } });
  t.equal(fault.status, 200, JSON.stringify(fault.body));
  const faulted = await get(cached, '/v1/pets?limit=5');
  t.equal(faulted.status, 503, 'the fault wins');
  t.equal(faulted.cache, null);
  await api(cached, `route-chaos?route=${encodeURIComponent('GET /v1/pets')}`, 'DELETE');

  const back = await get(cached, '/v1/pets?limit=5');
  t.equal(back.cache, 'hit', 'both gone: the cached answer again');
  t.equal(back.text, kept.text);
});

t.test('ttl_seconds: an answer older than the TTL is made again', async (t) => {
  const server = await serve(t, '{ enabled: true, ttl_seconds: 1 }');
  t.equal((await get(server, '/v1/pets?limit=5')).cache, 'miss');
  t.equal((await get(server, '/v1/pets?limit=5')).cache, 'hit');
  await new Promise((resolve) => setTimeout(resolve, 1100));
  t.equal((await get(server, '/v1/pets?limit=5')).cache, 'miss', 'expired');
  t.equal((await get(server, '/v1/pets?limit=5')).cache, 'hit');
});

t.test('off by default: no X-Mock-Cache, every answer made again', async (t) => {
  const server = await serve(t);
  const [a, b] = [await get(server, '/items/1?q=a'), await get(server, '/items/1?q=a')];
  t.equal(a.cache, null);
  t.equal(b.cache, null);
  t.not(JSON.parse(a.text).n, JSON.parse(b.text).n, 'the random token is drawn for each request');
  await get(cached, '/items/1?q=a');
  t.equal((await get(cached, '/items/1?q=a')).cache, 'hit', 'where response.caching.enabled, the same request is a hit');
});
