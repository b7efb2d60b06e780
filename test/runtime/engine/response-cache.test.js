// runtime/terminal/openapi/response-cache.ts and template-reads.ts: which answers are kept, under what key,
// for how long (on a test clock) and within what size (least recently used out first).
import t from 'tap';
import { ResponseCache } from '../../../dist/runtime/terminal/openapi/response-cache.js';
import { templateReads } from '../../../dist/runtime/terminal/openapi/template-reads.js';
import { createTemplateRuntime } from '../../../dist/runtime/template/index.js';

const templates = createTemplateRuntime({ seed: 1 });
const content = (examples = []) => ({ type: 'application/json', format: 'json', xmlRoot: 'root', validator: null, preferred: -1, examples, generate: () => ({}) });
const response = (headers = []) => ({ code: '200', status: 200, headers, contents: [] });
const answer = (body) => ({ status: 200, headers: [['content-type', 'application/json']], body });
const context = (path = {}, query = {}, headers = {}) => () => ({ path, query, headers, body: undefined });

function cacheOn(clock = { now: 1 }) {
  return new ResponseCache({ ttlSeconds: 10, maxSizeMb: 1, now: () => clock.now });
}

t.test('generated data: one key object, a miss stored as a hit', async (t) => {
  const cache = cacheOn();
  const c = content();
  const key = cache.keyOf(200, response(), c, null, false, templates, context());
  t.ok(key !== undefined);
  t.equal(cache.keyOf(200, response(), c, null, false, templates, context()), key, 'the same object: nothing allocated for the key');
  t.equal(cache.get(key), undefined);
  const miss = cache.put(key, answer('[1]'));
  t.same(miss.headers, [['content-type', 'application/json'], ['x-mock-cache', 'miss']]);
  const hit = cache.get(key);
  t.same(hit, { status: 200, headers: [['content-type', 'application/json'], ['x-mock-cache', 'hit']], body: '[1]' });
  t.equal(cache.get(key), hit, 'a hit is one stored object');
  const other = cache.keyOf(404, response(), c, null, false, templates, context());
  t.type(other, 'string', 'another status (Prefer: code= in a documented range) is another key');
  t.equal(cache.get(other), undefined);
  t.not(cache.keyOf(200, response(), content(), null, false, templates, context()), key, 'another media type or response is another key');
});

t.test('examples: kept only when something of them is made per request', async (t) => {
  const cache = cacheOn();
  const plain = { name: 'a', valid: true, body: '{"a":1}', template: null };
  t.equal(cache.keyOf(200, response(), content([plain]), plain, true, templates, context()), undefined, 'pre-serialised, no headers: not kept');
  t.ok(cache.keyOf(200, response([['x-next', () => 'u']]), content([plain]), plain, false, templates, context()) !== undefined, 'response headers (maybe generated): kept');
  const templated = { name: 't', valid: true, body: '{"id":"{{request.path.id}}"}', template: () => '' };
  t.equal(cache.keyOf(200, response(), content([templated]), templated, false, templates, context()), undefined, 'expansion off: served literally, not kept');
  const c = content([templated]);
  const one = cache.keyOf(200, response(), c, templated, true, templates, context({ id: '1' }));
  t.equal(cache.keyOf(200, response(), c, templated, true, templates, context({ id: '1' })), one, 'the same value, the same key');
  t.not(cache.keyOf(200, response(), c, templated, true, templates, context({ id: '2' })), one, 'another value read, another key');
  const body = { name: 'b', valid: true, body: '{"n":"{{request.body.name}}"}', template: () => '' };
  t.equal(cache.keyOf(200, response(), content([body]), body, true, templates, context()), undefined, 'a template reading the body: not kept');
});

t.test('read values are length-prefixed: no two requests share a key by accident', async (t) => {
  const cache = cacheOn();
  const example = { name: 'q', valid: true, body: '{"a":"{{request.query.a}}","b":"{{request.query.b}}"}', template: () => '' };
  const c = content([example]);
  const key = (query) => cache.keyOf(200, response(), c, example, true, templates, context({}, query));
  t.not(key({ a: 'x y', b: 'z' }), key({ a: 'x', b: 'y z' }));
  t.not(key({ a: '' }), key({}), 'empty is not absent');
  t.equal(key({ a: ['1', '2'] }), key({ a: '1' }), 'the template reads the first of repeated values, so does the key');
});

t.test('ttl_seconds on the injected clock', async (t) => {
  // a monotonic clock such as performance.now is past 0 (lru-cache reads a start of 0 as none)
  const clock = { now: 1_000 };
  const cache = cacheOn(clock);
  const key = cache.keyOf(200, response(), content(), null, false, templates, context());
  cache.put(key, answer('[]'));
  clock.now = 10_999;
  t.ok(cache.get(key), 'kept before the TTL');
  clock.now = 11_001;
  t.equal(cache.get(key), undefined, 'gone after it, counted from when it was made');
});

t.test('max_size_mb: least recently used out first; an answer larger than the bound is not kept', async (t) => {
  const cache = cacheOn();
  const keys = [content(), content(), content()].map((c) => cache.keyOf(200, response(), c, null, false, templates, context()));
  const body = 'x'.repeat(400_000);
  cache.put(keys[0], answer(body));
  cache.put(keys[1], answer(body));
  t.ok(cache.get(keys[0]), 'two fit in 1 MiB; the second is now the least recently used');
  cache.put(keys[2], answer(body));
  t.ok(cache.get(keys[0]));
  t.equal(cache.get(keys[1]), undefined, 'evicted');
  t.ok(cache.get(keys[2]));
  const huge = cache.keyOf(200, response(), content(), null, false, templates, context());
  t.same(cache.put(huge, answer('x'.repeat(2 * 1024 * 1024))).headers.at(-1), ['x-mock-cache', 'miss'], 'still answered');
  t.equal(cache.get(huge), undefined, 'but not kept');
  t.ok(cache.get(keys[0]), 'and nothing else was pushed out for it');
});

t.test('clear forgets answers and what examples read', async (t) => {
  const cache = cacheOn();
  const key = cache.keyOf(200, response(), content(), null, false, templates, context());
  cache.put(key, answer('[]'));
  cache.clear();
  t.equal(cache.get(key), undefined);
});

t.test('templateReads: every request value in every branch, once; null when the body is read', async (t) => {
  t.same(templateReads('{"a":"{{request.path.id}}","b":"{{request.path.id}}"}', 'json'), [{ source: 'path', name: 'id' }]);
  t.same(templateReads('{{#if (eq request.query.kind \'cat\')}}{{request.header.X-Tenant}}{{else}}{{uuid}}{{/if}}', 'none'), [
    { source: 'query', name: 'kind' },
    { source: 'header', name: 'x-tenant' },
  ]);
  t.same(templateReads('{{uuid}} {{now}} {{faker.person.firstName}}', 'none'), [], 'random tokens read nothing of the request');
  t.equal(templateReads('{{#if request.body.ok}}yes{{/if}}', 'none'), null);
});
