// runtime/chain/proxy: the conditional proxy's rules compiled once (every mistake as one line
// naming the rule's key), the first matching rule chosen per request, and the admin credentials
// that never go upstream.
import t from 'tap';
import { compileProxyRules, isAdminCredential, ruleFor } from '../../../dist/runtime/chain/proxy/index.js';

const request = ({ headers = {}, query = {}, json } = {}) => ({ headers, query: new Map(Object.entries(query)), json });

t.test('the first rule whose pattern matches and whose condition holds', async (t) => {
  const { rules, errors } = compileProxyRules(
    [
      { pattern: '/v1/admin/**', upstream_url: 'http://admin.internal', condition: "$.user.role == 'admin'" },
      { pattern: '/v1/**', condition: "header[x-beta] != ''" },
      { pattern: '/v2/*' },
    ],
    'proxy.rules',
    true,
  );
  t.same(errors, []);
  t.equal(ruleFor(rules, '/v1/admin/x', request({ json: { user: { role: 'admin' } } }))?.upstream, 'http://admin.internal');
  t.equal(ruleFor(rules, '/v1/admin/x', request({ json: { user: { role: 'viewer' } } })), undefined, 'its condition fails and the next rule does not hold either');
  t.equal(ruleFor(rules, '/v1/admin/x', request({ headers: { 'x-beta': '1' } }))?.pattern, '/v1/**', 'the next rule that holds');
  t.equal(ruleFor(rules, '/v2/a', request())?.pattern, '/v2/*', 'a rule without a condition holds for every request its pattern matches');
  t.equal(ruleFor(rules, '/v2/a/b', request()), undefined);
});

t.test('every mistake of every rule, one line each, a condition with its position', async (t) => {
  const { rules, errors } = compileProxyRules(
    [
      { pattern: '/ok', condition: "AND(header[x] == 'a' query[y] == 'b')" },
      { pattern: '/ok', upstream_url: 'ftp://nope' },
      { pattern: '/ok' },
    ],
    'proxy.rules',
    false,
  );
  t.same(rules, [], 'nothing is compiled while something is wrong');
  t.same(errors, [
    'proxy.rules[0].upstream_url: a rule needs an upstream: give it upstream_url, or set proxy.upstream_url',
    `proxy.rules[0].condition: expected "," or ")" in AND(...), found query[y] at position 22`,
    'proxy.rules[1].upstream_url: expected an http(s) URL such as http://localhost:8080, got "ftp://nope"',
    'proxy.rules[2].upstream_url: a rule needs an upstream: give it upstream_url, or set proxy.upstream_url',
  ]);
});

t.test("the mock's own admin credentials are recognised; the API's own are not", async (t) => {
  const jwt = (claims) => `Bearer ${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;
  t.ok(isAdminCredential('x-mock-management-token', 'anything'));
  t.ok(isAdminCredential('x-mock-admin-token', 'anything'));
  t.ok(isAdminCredential('authorization', jwt({ sub: 'admin', role: 'admin', acc: 'a1', iss: 'mock', exp: 1 })), "an access token of the admin API's login");
  t.notOk(isAdminCredential('authorization', jwt({ sub: 'u', iss: 'https://idp.example.com' })), "the API's own bearer token");
  t.notOk(isAdminCredential('authorization', jwt({ iss: 'mock-oauth2-token-endpoint', sub: 'client' })), "a token of the mocked API's OAuth endpoint");
  t.notOk(isAdminCredential('authorization', jwt({ iss: 'mock' })), 'mock as issuer alone is not enough: an account and a role too');
  t.notOk(isAdminCredential('authorization', 'Basic YTpi'));
  t.notOk(isAdminCredential('authorization', 'Bearer not-a-jwt'));
  t.notOk(isAdminCredential('authorization', 'Bearer a.!!!.c'));
  t.notOk(isAdminCredential('x-api-key', 'k'));
});
