// runtime/chain/mocks MockStore.match: which enabled mock answers a request, in the spec's matching order.
import t from 'tap';
import { Exchange } from '../../../dist/runtime/chain/exchange/index.js';
import { MockStore } from '../../../dist/runtime/chain/mocks/index.js';

const request = (method, target, headers = {}) => {
  const [path, rawQuery = ''] = target.split('?');
  return new Exchange({ method, path, rawQuery, headers });
};

function storeOf(...mocks) {
  const store = new MockStore();
  for (const mock of mocks) {
    const result = store.create({ response: { body: mock.id }, ...mock });
    if (!result.ok) throw new Error(result.error);
  }
  return store;
}

const winner = (store, method, target, headers) => store.match(request(method, target, headers))?.mock.id;

t.test('static path beats parameterised path, whatever the creation order', async (t) => {
  const store = storeOf({ id: 'me', method: 'GET', path: '/users/me' }, { id: 'param', method: 'GET', path: '/users/{id}' });
  t.equal(winner(store, 'GET', '/users/me'), 'me');
  t.equal(winner(store, 'GET', '/users/42'), 'param');
  const reversed = storeOf({ id: 'param', method: 'GET', path: '/users/{id}' }, { id: 'me', method: 'GET', path: '/users/me' });
  t.equal(winner(reversed, 'GET', '/users/me'), 'me');
});

t.test('the first differing segment decides between parameterised paths', async (t) => {
  const store = storeOf({ id: 'late-static', method: 'GET', path: '/{a}/b/c' }, { id: 'early-static', method: 'GET', path: '/a/{b}/c' });
  t.equal(winner(store, 'GET', '/a/b/c'), 'early-static');
});

t.test('priority wins over everything else', async (t) => {
  const store = storeOf({ id: 'static', method: 'GET', path: '/users/me' }, { id: 'urgent', method: 'GET', path: '/users/{id}', priority: 10 });
  t.equal(winner(store, 'GET', '/users/me'), 'urgent');
  const negative = storeOf({ id: 'low', method: 'GET', path: '/x', priority: -1 }, { id: 'default', method: 'GET', path: '/x' });
  t.equal(winner(negative, 'GET', '/x'), 'default');
});

t.test('header patterns: full match, case-insensitive names, absent header fails', async (t) => {
  const store = storeOf({ id: 'plain', method: 'GET', path: '/a' }, { id: 'tenant', method: 'GET', path: '/a', match_headers: { 'X-Tenant': 'acme|beta' } });
  t.equal(winner(store, 'GET', '/a', { 'x-tenant': 'acme' }), 'tenant');
  t.equal(winner(store, 'GET', '/a', { 'x-tenant': 'beta' }), 'tenant');
  t.equal(winner(store, 'GET', '/a', { 'x-tenant': 'acme-corp' }), 'plain', 'the pattern must match the whole value');
  t.equal(winner(store, 'GET', '/a'), 'plain');
});

t.test('query patterns: full match, any repeated value, more conditions win, query above headers', async (t) => {
  const store = storeOf(
    { id: 'plain', method: 'GET', path: '/a' },
    { id: 'page', method: 'GET', path: '/a', match_query: { page: '\\d+' } },
    { id: 'page-size', method: 'GET', path: '/a', match_query: { page: '\\d+', size: '10' } },
    { id: 'headers', method: 'GET', path: '/a', match_headers: { 'x-a': '.*', 'x-b': '.*' } },
  );
  t.equal(winner(store, 'GET', '/a?page=2'), 'page');
  t.equal(winner(store, 'GET', '/a?page=two'), 'plain');
  t.equal(winner(store, 'GET', '/a?page=x&page=3'), 'page', 'any value of a repeated parameter');
  t.equal(winner(store, 'GET', '/a?page=2&size=10'), 'page-size');
  t.equal(winner(store, 'GET', '/a?page=2', { 'x-a': '1', 'x-b': '2' }), 'page', 'one query condition beats two header conditions');
  t.equal(winner(store, 'GET', '/a', { 'x-a': '1', 'x-b': '2' }), 'headers');
  t.equal(winner(store, 'GET', '/a?page=%32'), 'page', 'query values are decoded');
});


t.test('disabled mocks never match', async (t) => {
  const store = storeOf({ id: 'off', method: 'GET', path: '/a', enabled: false, priority: 9 }, { id: 'on', method: 'GET', path: '/a' });
  t.equal(winner(store, 'GET', '/a'), 'on');
  t.equal(winner(storeOf({ id: 'off', method: 'GET', path: '/a', enabled: false }), 'GET', '/a'), undefined);
});

t.test('methods: exact, ANY for every method, GET also answers HEAD, the closer method wins', async (t) => {
  const store = storeOf({ id: 'any', method: 'ANY', path: '/a' }, { id: 'post', method: 'post', path: '/a' });
  t.equal(winner(store, 'POST', '/a'), 'post');
  t.equal(winner(store, 'DELETE', '/a'), 'any');
  const get = storeOf({ id: 'get', method: 'GET', path: '/b' });
  t.equal(winner(get, 'HEAD', '/b'), 'get');
  t.equal(winner(get, 'POST', '/b'), undefined);
  const head = storeOf({ id: 'head', method: 'HEAD', path: '/c' }, { id: 'get', method: 'GET', path: '/c' }, { id: 'any', method: 'ANY', path: '/c' });
  t.equal(winner(head, 'HEAD', '/c'), 'head');
  const headless = storeOf({ id: 'get', method: 'GET', path: '/c' }, { id: 'any', method: 'ANY', path: '/c' });
  t.equal(winner(headless, 'HEAD', '/c'), 'get');
});

t.test('ties go to the mock created last', async (t) => {
  const store = storeOf({ id: 'first', method: 'GET', path: '/a' }, { id: 'second', method: 'GET', path: '/a' });
  t.equal(winner(store, 'GET', '/a'), 'second');
});

t.test('trailing slashes are ignored on both sides', async (t) => {
  const store = storeOf({ id: 'slash', method: 'GET', path: '/a/' }, { id: 'root', method: 'GET', path: '/' });
  t.equal(winner(store, 'GET', '/a'), 'slash');
  t.equal(winner(store, 'GET', '/a/'), 'slash');
  t.equal(winner(store, 'GET', '/'), 'root');
  t.equal(winner(store, 'GET', '/a/b'), undefined);
});

t.test('params: percent-decoded, one whole non-empty segment', async (t) => {
  const store = storeOf({ id: 'user', method: 'GET', path: '/users/{id}/posts/{post}' }, { id: 'file', method: 'GET', path: '/files/my%20file' });
  const match = store.match(request('GET', '/users/a%20b/posts/%E2%9C%93'));
  t.same(match.params, { id: 'a b', post: '✓' });
  t.equal(store.match(request('GET', '/users//posts/1')), undefined);
  t.equal(store.match(request('GET', '/users/1/posts')), undefined);
  t.equal(winner(store, 'GET', '/files/my%20file'), 'file', 'static segments compare decoded');
  t.equal(winner(store, 'GET', '/users/%ZZ/posts/1'), 'user', 'a bad escape is kept as written');
});

t.test('a few hundred mocks', async (t) => {
  const store = new MockStore();
  for (let i = 0; i < 300; i++) store.create({ id: `m${i}`, method: 'GET', path: `/items/${i}/{sub}`, response: { body: i } });
  store.create({ id: 'catch', method: 'GET', path: '/items/{n}/{sub}', response: { body: 'catch' } });
  t.equal(winner(store, 'GET', '/items/150/x'), 'm150');
  t.equal(winner(store, 'GET', '/items/999/x'), 'catch');
  t.equal(winner(store, 'GET', '/items/1'), undefined);
});
