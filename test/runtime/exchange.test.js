// runtime/chain/exchange: one request for the whole chain; query and JSON body parsed at most once.
import t from 'tap';
import { Exchange, held, withoutContent } from '../../dist/runtime/chain/exchange/index.js';

t.test('the query and the JSON body are parsed on first use, once', async (t) => {
  const ex = new Exchange({ method: 'POST', path: '/a', rawQuery: 'x=1&x=2&y=a+b', headers: {}, body: Buffer.from('{"n":1}') });
  const query = ex.query;
  t.same([...query], [['x', ['1', '2']], ['y', ['a b']]]);
  t.equal(ex.query, query, 'the same map on every read');
  const json = ex.json;
  t.same(json, { n: 1 });
  t.equal(ex.json, json, 'parsed once');
  t.equal(new Exchange({ method: 'GET', path: '/', headers: {} }).query.size, 0);
  t.equal(new Exchange({ method: 'POST', path: '/', headers: {}, body: Buffer.from('{nope') }).json, undefined, 'not JSON: undefined');
});

t.test('the router fills route, parameters and match; statistics count the answering route', async (t) => {
  const ex = new Exchange({ method: 'GET', path: '/a', headers: {}, client: '::ffff:127.0.0.1' });
  t.equal(ex.route, null);
  t.same(ex.match, { kind: 'none' });
  t.equal(ex.countedAs, null);
  const route = { key: 'GET /a', method: 'GET', path: '/a', index: 0, tags: [] };
  ex.route = route;
  t.equal(ex.countedAs, route);
  const mock = { key: 'GET /a', method: 'GET', path: '/a' };
  ex.answeredBy = mock;
  t.equal(ex.countedAs, mock, 'a runtime mock that answered counts instead');
  const uws = new Exchange({ method: 'GET', path: '/', headers: {}, client: new TextEncoder().encode('0000:0000:0000:0000:0000:ffff:7f00:0001').buffer });
  t.equal(uws.clientAddress, '127.0.0.1', "uWS's raw address text, decoded when read");
});

t.test('answers: holds add up; content-free statuses', async (t) => {
  const answer = { status: 200, headers: [], body: 'x' };
  t.equal(held(answer, 0), answer, 'no hold: the same answer');
  t.same(held(held(answer, 10), 5).delivery, { holdMs: 15 });
  t.ok(withoutContent('HEAD', 200));
  t.ok(withoutContent('GET', 204));
  t.ok(withoutContent('GET', 304));
  t.notOk(withoutContent('GET', 200));
});
