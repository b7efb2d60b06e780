// runtime/chain/overrides OverrideSet: replacing the live rules (all or nothing) and applying them to responses.
import t from 'tap';
import { Exchange } from '../../../dist/runtime/chain/exchange/index.js';
import { OverrideSet } from '../../../dist/runtime/chain/overrides/index.js';

const request = (method, target, headers = {}) => {
  const [path, rawQuery = ''] = target.split('?');
  return new Exchange({ method, path, rawQuery, headers });
};
const json = (value, status = 200) => Object.freeze({ status, headers: Object.freeze([Object.freeze(['content-type', 'application/json'])]), body: JSON.stringify(value) });

t.test('replace accepts an array or {rules}, fills defaults, and GET shows the wire shape', async (t) => {
  const set = new OverrideSet();
  t.equal(set.active, false);
  t.same(set.rules, []);
  const result = set.replace({ rules: [{ name: 'teapot', match: { method: 'get', path: '/tea' }, status: 418 }] });
  t.same(result, { ok: true, rules: [{ name: 'teapot', enabled: true, match: { method: 'GET', path: '/tea' }, status: 418 }] });
  t.same(set.rules, result.rules);
  t.equal(set.active, true);
  t.same(set.replace([{ name: 'off', enabled: false, delay_ms: 5 }]), { ok: true, rules: [{ name: 'off', enabled: false, delay_ms: 5 }] });
  t.equal(set.active, false, 'only disabled rules: nothing to apply');
  t.same(set.replace([]), { ok: true, rules: [] });
});

t.test('an invalid set changes nothing, and the error names the rule and field', async (t) => {
  const set = new OverrideSet([{ name: 'keep', enabled: true, status: 503 }]);
  const cases = [
    ['nope', 'override rules must be an array or an object {"rules": [...]} (got "nope")'],
    [{ rules: [], extra: 1 }, 'override rules must be an array or an object {"rules": [...]} (got {"rules":[],"extra":1})'],
    [[{ status: 500 }], 'rules[0]: name is required'],
    [[{ name: 'a', status: 500 }, 'x'], 'rules[1]: the rule must be an object (got "x")'],
    [[{ name: 'a', status: 700 }], 'rules[0] ("a"): status must be at most 599 (got 700)'],
    [[{ name: 'a', delay_ms: -1 }], 'rules[0] ("a"): delay_ms must be at least 0 (got -1)'],
    [[{ name: 'a', merge: [1] }], 'rules[0] ("a"): merge must be an object (got [1])'],
    [[{ name: 'a', headers: { 'x-n': 1 } }], 'rules[0] ("a"): headers.x-n must be a string (got 1)'],
    [[{ name: 'a', status: 500, match: { path: 'api/*' } }], 'rules[0] ("a"): match.path must start with / (got "api/*")'],
    [[{ name: 'a', status: 500, match: { url: '/x' } }], 'rules[0] ("a"): match.url is not a known field; known fields: method, path, query, headers, json_path, client_certificate'],
    [[{ name: 'a', stauts: 500 }], 'rules[0] ("a"): stauts is not a known field (did you mean status?); known fields: name, enabled, match, status, headers, body, merge, delay_ms'],
    [[{ name: 'a', match: { path: '/x' } }], 'rules[0] ("a"): the rule changes nothing; give it at least one of status, headers, body, merge, delay_ms'],
    [[{ name: 'a', status: 500 }, { name: 'a', status: 502 }], 'rules[1] ("a"): the name is already used by rules[0]; rule names must be unique'],
  ];
  for (const [input, error] of cases) {
    t.same(set.replace(input), { ok: false, error }, error);
    t.same(set.rules, [{ name: 'keep', enabled: true, status: 503 }]);
    t.equal(set.active, true);
  }
});

t.test('the constructor refuses invalid rules', async (t) => {
  t.throws(() => new OverrideSet([{ name: 'x' }]), { code: 'MOCK_ERR_OVERRIDES_INVALID', message: 'rules[0] ("x"): the rule changes nothing; give it at least one of status, headers, body, merge, delay_ms (fix the override rules)' });
});

t.test('nothing matches: the very same response and no delay', async (t) => {
  const set = new OverrideSet([{ name: 'tea', enabled: true, match: { path: '/tea' }, status: 418 }]);
  const response = json({ a: 1 });
  const outcome = set.apply(request('GET', '/coffee'), response);
  t.equal(outcome.response, response);
  t.same(outcome, { response, delayMs: 0, applied: [] });
});

t.test('status, headers and delay; the input response is not modified', async (t) => {
  const set = new OverrideSet([{ name: 'slow', enabled: true, status: 503, headers: { 'Retry-After': '5', 'Content-Type': 'application/problem+json' }, delay_ms: 200 }]);
  const response = json({ a: 1 });
  const outcome = set.apply(request('GET', '/x'), response);
  t.same(outcome, {
    response: { status: 503, headers: [['retry-after', '5'], ['content-type', 'application/problem+json']], body: '{"a":1}', source: 'override' },
    delayMs: 200,
    applied: ['slow'],
  });
  t.same(response, { status: 200, headers: [['content-type', 'application/json']], body: '{"a":1}' });
});

t.test('a delay-only rule keeps the response object', async (t) => {
  const set = new OverrideSet([{ name: 'lag', enabled: true, delay_ms: 50 }]);
  const response = json([]);
  const outcome = set.apply(request('GET', '/x'), response);
  t.equal(outcome.response, response);
  t.equal(outcome.delayMs, 50);
  t.same(outcome.applied, ['lag']);
});

t.test('body replaces the body and sets the content type unless the rule names one', async (t) => {
  const text = { status: 200, headers: [['content-type', 'text/plain'], ['x-keep', '1']], body: 'hi' };
  const set = new OverrideSet([{ name: 'json', enabled: true, body: { down: true } }]);
  t.same(set.apply(request('GET', '/'), text).response, { status: 200, headers: [['x-keep', '1'], ['content-type', 'application/json']], body: '{"down":true}', source: 'override' });
  const plain = new OverrideSet([{ name: 'text', enabled: true, body: 'maintenance' }]);
  t.same(plain.apply(request('GET', '/'), json({})).response, { status: 200, headers: [['content-type', 'text/plain']], body: 'maintenance', source: 'override' });
  const own = new OverrideSet([{ name: 'xml', enabled: true, body: '<down/>', headers: { 'content-type': 'application/xml' } }]);
  t.same(own.apply(request('GET', '/'), json({})).response, { status: 200, headers: [['content-type', 'application/xml']], body: '<down/>', source: 'override' });
});

t.test('merge patches JSON bodies (RFC 7396) and leaves other bodies alone', async (t) => {
  const set = new OverrideSet([{ name: 'patch', enabled: true, merge: { name: 'Rex', owner: null, meta: { v: 2 }, tags: ['x'] } }]);
  const pet = json({ id: 1, name: 'Tom', owner: 'ann', meta: { v: 1, keep: true }, tags: ['a', 'b'] });
  t.same(JSON.parse(set.apply(request('GET', '/pets/1'), pet).response.body), { id: 1, name: 'Rex', meta: { v: 2, keep: true }, tags: ['x'] });
  t.same(JSON.parse(set.apply(request('GET', '/'), { status: 200, headers: [['Content-Type', 'application/vnd.api+json; charset=utf-8']], body: '{"a":1}' }).response.body), { a: 1, name: 'Rex', meta: { v: 2 }, tags: ['x'] });
  const text = { status: 200, headers: [['content-type', 'text/plain']], body: '{"a":1}' };
  const outcome = set.apply(request('GET', '/'), text);
  t.equal(outcome.response, text, 'not JSON: no-op');
  t.same(outcome.applied, ['patch']);
  const broken = { status: 200, headers: [['content-type', 'application/json']], body: '{oops' };
  t.equal(set.apply(request('GET', '/'), broken).response, broken, 'unparseable JSON: no-op');
  const proto = new OverrideSet([{ name: 'proto', enabled: true, merge: JSON.parse('{"__proto__": {"polluted": true}}') }]);
  t.equal(proto.apply(request('GET', '/'), json({})).response.body, '{"__proto__":{"polluted":true}}');
  t.equal({}.polluted, undefined);
});

t.test('body then merge within a rule; later rules win', async (t) => {
  const set = new OverrideSet([
    { name: 'first', enabled: true, status: 500, body: { a: 1 }, merge: { b: 2 }, delay_ms: 10 },
    { name: 'off', enabled: false, status: 404 },
    { name: 'second', enabled: true, status: 502, merge: { a: null }, delay_ms: 20 },
  ]);
  t.same(set.apply(request('GET', '/'), json({ z: 0 })), {
    response: { status: 502, headers: [['content-type', 'application/json']], body: '{"b":2}', source: 'override' },
    delayMs: 20,
    applied: ['first', 'second'],
  });
  t.same(set.rules[0].body, { a: 1 }, 'the rule keeps its own body');
});

t.test('match: method, path globs, exact query and headers', async (t) => {
  const set = new OverrideSet([
    { name: 'post', enabled: true, match: { method: 'post' }, headers: { 'x-post': '1' } },
    { name: 'star', enabled: true, match: { path: '/api/*/items' }, headers: { 'x-star': '1' } },
    { name: 'globstar', enabled: true, match: { path: '/admin/**' }, headers: { 'x-globstar': '1' } },
    { name: 'exact', enabled: true, match: { path: '/files/my file.txt/' }, headers: { 'x-exact': '1' } },
    { name: 'query', enabled: true, match: { query: { debug: 'on' } }, headers: { 'x-query': '1' } },
    { name: 'header', enabled: true, match: { headers: { 'X-Tenant': 'acme' } }, headers: { 'x-header': '1' } },
    { name: 'root', enabled: true, match: { path: '/' }, headers: { 'x-root': '1' } },
  ]);
  const applied = (method, target, headers) => set.apply(request(method, target, headers), json({})).applied;
  t.same(applied('POST', '/x'), ['post']);
  t.same(applied('GET', '/api/v1/items'), ['star']);
  t.same(applied('GET', '/api/v1/x/items'), [], '* stays within a segment');
  t.same(applied('GET', '/api/v1/items/'), ['star'], 'trailing slash ignored');
  t.same(applied('GET', '/admin'), ['globstar'], '** matches no segment too');
  t.same(applied('GET', '/admin/a/b/c'), ['globstar']);
  t.same(applied('GET', '/administrator'), []);
  t.same(applied('GET', '/files/my%20file.txt'), ['exact'], 'paths compare decoded');
  t.same(applied('GET', '/files/myXfile.txt'), [], 'no glob: exact, dots are literal');
  t.same(applied('GET', '/x?debug=on'), ['query']);
  t.same(applied('GET', '/x?debug=off&debug=on'), ['query'], 'any value of a repeated parameter');
  t.same(applied('GET', '/x?debug=onn'), []);
  t.same(applied('GET', '/x', { 'x-tenant': 'acme' }), ['header']);
  t.same(applied('GET', '/x', { 'x-tenant': 'Acme' }), [], 'values are exact');
  t.same(applied('GET', '/'), ['root']);
});

t.test('admin.limits.max_override_rules: a larger set is refused with 413, the previous rules stay', async (t) => {
  const rule = (i) => ({ name: `r${i}`, status: 418 });
  const set = new OverrideSet([rule(1)], 2);
  t.match(set.replace([rule(1), rule(2), rule(3)]), { ok: false, status: 413, error: '3 override rules are more than admin.limits.max_override_rules (2); remove some or raise admin.limits.max_override_rules in mock.yaml' });
  t.same(set.rules.map((r) => r.name), ['r1']);
  t.equal(set.replace([rule(1), rule(2)]).ok, true);
  t.throws(() => new OverrideSet([rule(1), rule(2), rule(3)], 2), { code: 'MOCK_ERR_OVERRIDES_INVALID', message: /3 override rules are more than admin\.limits\.max_override_rules \(2\)/ });
  t.equal(new OverrideSet().maxRules, 1000, "the configuration's default");
});
