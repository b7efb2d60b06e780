// The unmatched view's ranking (runtime/match/near-miss.ts): closest routes first, every field
// each one failed on, hostile segment lengths bounded.
import t from 'tap';
import { compileConditions, nearestRoutes } from '../../../dist/runtime/match/index.js';

const request = (method, path, headers = {}, query = {}) => ({ method, path, headers, query: new Map(Object.entries(query)) });
const routes = [
  { method: 'GET', path: '/v1/pets', source: 'description' },
  { method: 'GET', path: '/v1/pets/{petId}', source: 'description' },
  { method: 'POST', path: '/v1/pets', source: 'description' },
  { method: 'GET', path: '/v1/users/{id}', source: 'description' },
  { method: 'GET', path: '/legacy/**', source: 'custom_route' },
];

t.test('a typo in a segment ranks above another word, and names the segment', async (t) => {
  const [first, second] = nearestRoutes(request('GET', '/v1/pet/3'), routes);
  t.match(first, { path: '/v1/pets/{petId}', mismatches: [{ field: 'path', expected: 'pets', actual: 'pet', reason: 'segment 2 is "pet", the route has "pets"' }] });
  t.equal(second.path, '/v1/users/{id}', 'another word ranks next');
  t.ok(first.score < second.score);
});

t.test('method and length mismatches', async (t) => {
  const [first] = nearestRoutes(request('DELETE', '/v1/pets'), routes, 1);
  t.same(first.mismatches, [{ field: 'method', expected: 'GET', actual: 'DELETE', reason: 'the request is DELETE, the route answers GET' }]);
  const deep = nearestRoutes(request('GET', '/v1/pets/1/toys'), routes, 1)[0];
  t.match(deep, { path: '/v1/pets/{petId}', score: 1, mismatches: [{ field: 'path', expected: '3 segment(s)', actual: '4' }] }, 'one extra segment');
  const empty = nearestRoutes(request('GET', '/v1/pets/'), [{ method: 'GET', path: '/v1/pets/{petId}/toys', source: 'description' }])[0];
  t.match(empty, { score: 2, mismatches: [{ field: 'path', reason: 'the request path has 2 segment(s), the route 4' }] }, 'two missing segments (a trailing slash is none)');
  const legacy = nearestRoutes(request('GET', '/legacy'), routes, 1)[0];
  t.match(legacy, { path: '/legacy/**', score: 0 }, 'a ** route takes any depth after it');
});

t.test('a runtime mock: each failed header and query condition with what the request sent', async (t) => {
  const headers = compileConditions({ 'X-Beta': 'yes' }, 'match_headers').map((c) => ({ ...c, text: 'yes' }));
  const query = compileConditions({ tier: { equals: 'gold' } }, 'match_query').map((c) => ({ ...c, text: '{"equals":"gold"}' }));
  const mock = { method: 'GET', path: '/v2/owners', source: 'mock', mock_id: 'm1', headers, query, bodyConditions: 0 };
  const [first] = nearestRoutes(request('GET', '/v2/owners', {}, { tier: ['silver', 'bronze'] }), [...routes, mock], 1);
  t.same(first.mismatches, [
    { field: 'header', name: 'x-beta', expected: 'yes', actual: null, reason: 'the request has no x-beta header' },
    { field: 'query', name: 'tier', expected: '{"equals":"gold"}', actual: 'silver, bronze', reason: 'tier does not satisfy {"equals":"gold"}' },
  ]);
  t.equal(first.mock_id, 'm1');
  const body = nearestRoutes(request('GET', '/v2/owners', { 'x-beta': 'yes' }, { tier: ['gold'] }), [{ ...mock, bodyConditions: 2 }], 1)[0];
  t.match(body.mismatches, [{ field: 'body', expected: '2 match_json_path condition(s)' }], 'only the body is left to blame');
});

t.test('a hostile segment costs no more than a parameter value of its length (64 characters are compared)', async (t) => {
  const long = 'x'.repeat(200_000);
  const time = (path) => {
    const started = performance.now();
    for (let i = 0; i < 20; i++) nearestRoutes(request('GET', path), routes);
    return performance.now() - started;
  };
  time('/warm/up');
  const compared = time(`/v1/${long}`);
  const plain = time(`/v1/pets/${long}`);
  t.ok(compared < plain * 5 + 20, `a long literal mismatch ${compared.toFixed(1)} ms, a long parameter ${plain.toFixed(1)} ms`);
});
