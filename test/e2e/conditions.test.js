// The one condition dialect through the real CLI: a mock.yaml custom route, a runtime mock, an
// override rule and a chaos request matcher selecting requests by {equals}, {matches},
// {present} and JSONPath conditions on the JSON body; malformed and script-like paths refused
// where they are written; a hostile path on a hostile body answered in time proportional to it.
import t from 'tap';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { root, runMock, startMock, tmpdir } from '../helpers/cli.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');
const dir = tmpdir();
const out = path.join(dir, 'out');
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `specs: [${JSON.stringify(petstore)}]
http:
  routes:
    - method: POST
      path: /v1/pets
      match:
        json_path:
          "$.owner.role": admin
          "$.tags[?@ == 'vip']": { present: true }
      response: { status: 201, body: { rank: vip-admin } }
    - method: POST
      path: /v1/pets
      match:
        headers: { x-trace: { present: false } }
        json_path: { "$.kind": { matches: "(?i)bird|fish" } }
      response: { status: 202, body: { rank: untraced-bird } }
observability:
  chaos:
    enabled: true
    fault_injection:
      enabled: true
      http_errors: [503]
      http_error_probability: 1
      request_matcher: { headers: [{ name: x-chaos, value: { matches: "on|yes" } }] }
`,
);

const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', out, '--admin-embed']);
t.teardown(() => server.stop());

async function send(method, url, body, headers = {}) {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

t.test('mock.yaml: a custom route selected by JSONPath conditions on the body', async (t) => {
  const vip = await send('POST', '/v1/pets', { name: 'Rex', owner: { role: 'admin' }, tags: ['new', 'vip'] });
  t.equal(vip.status, 201);
  t.same(vip.json, { rank: 'vip-admin' });
  const notVip = await send('POST', '/v1/pets', { name: 'Rex', owner: { role: 'admin' }, tags: ['new'] });
  t.not(notVip.status, 201, 'every condition must hold');
  const bird = await send('POST', '/v1/pets', { name: 'Tweety', kind: 'BIRD' });
  t.same([bird.status, bird.json], [202, { rank: 'untraced-bird' }], '{matches} with an inline flag');
  const traced = await send('POST', '/v1/pets', { name: 'Tweety', kind: 'bird' }, { 'x-trace': '1' });
  t.not(traced.status, 202, '{present: false} on a header');
  const text = await send('POST', '/v1/pets', 'kind=bird', { 'content-type': 'text/plain' });
  t.not(text.status, 202, 'no JSON body: a JSONPath selects nothing');
});

t.test('admin API: a runtime mock with match_json_path and conditions on headers', async (t) => {
  const created = await send('POST', '/__mock/mocks', {
    id: 'bulk',
    method: 'POST',
    path: '/v1/orders',
    match_json_path: { '$.items[?@.qty > 5]': { present: true }, '$.customer.email': { matches: '.*@example\\.com' } },
    match_headers: { 'x-channel': { present: true } },
    response: { body: { bulk: true } },
  });
  t.equal(created.status, 201, created.text);
  t.same(created.json.data.match_json_path, { '$.items[?@.qty > 5]': { present: true }, '$.customer.email': { matches: '.*@example\\.com' } }, 'the conditions come back as written');
  t.teardown(() => send('DELETE', '/__mock/mocks/bulk'));
  await send('POST', '/__mock/mocks', { id: 'any-order', method: 'POST', path: '/v1/orders', response: { body: { bulk: false } } });
  t.teardown(() => send('DELETE', '/__mock/mocks/any-order'));
  const order = (items, email = 'ann@example.com', headers = { 'x-channel': 'web' }) => send('POST', '/v1/orders', { customer: { email }, items }, headers);
  t.same((await order([{ sku: 'a', qty: 1 }, { sku: 'b', qty: 6 }])).json, { bulk: true }, 'the mock with conditions outranks the plain one');
  t.same((await order([{ sku: 'a', qty: 1 }])).json, { bulk: false }, 'no item over 5');
  t.same((await order([{ qty: 9 }], 'ann@example.org')).json, { bulk: false }, 'the email does not match');
  t.same((await order([{ qty: 9 }], 'ann@example.com', {})).json, { bulk: false }, 'the header is absent');
});

t.test('admin API: an override rule with a JSONPath condition', async (t) => {
  await send('POST', '/__mock/mocks', { id: 'quote', method: 'POST', path: '/v1/quote', response: { body: { price: 10 } } });
  t.teardown(() => send('DELETE', '/__mock/mocks/quote'));
  const put = await send('PUT', '/__mock/overrides', [{ name: 'gold', match: { method: 'POST', json_path: { '$.tier': 'gold', '$.coupon': { present: false } } }, merge: { price: 8 }, headers: { 'x-override': 'gold' } }]);
  t.equal(put.status, 200, put.text);
  t.teardown(() => send('PUT', '/__mock/overrides', []));
  const gold = await send('POST', '/v1/quote', { tier: 'gold' });
  t.same([gold.json, gold.headers.get('x-override')], [{ price: 8 }, 'gold']);
  const coupon = await send('POST', '/v1/quote', { tier: 'gold', coupon: 'X' });
  t.same([coupon.json, coupon.headers.get('x-override')], [{ price: 10 }, null], '{present: false}');
  t.same((await send('POST', '/v1/quote', { tier: 'silver' })).json, { price: 10 });
});

t.test('mock.yaml: a chaos request matcher with a {matches} header condition', async (t) => {
  t.equal((await send('GET', '/v1/pets', undefined, { 'x-chaos': 'yes' })).status, 503);
  t.equal((await send('GET', '/v1/pets', undefined, { 'x-chaos': 'on' })).status, 503);
  t.equal((await send('GET', '/v1/pets', undefined, { 'x-chaos': 'no' })).status, 200, 'the whole value must match');
  t.equal((await send('GET', '/v1/pets')).status, 200);
});

t.test('malformed and script-like paths are refused where they are written, in one line', async (t) => {
  const refused = async (mock, message) => {
    const response = await send('POST', '/__mock/mocks', { method: 'POST', path: '/v1/refused', response: { body: {} }, ...mock });
    t.equal(response.status, 400, JSON.stringify(mock));
    t.match(response.json.error, message);
    t.notMatch(response.json.error, /\n/, 'one line');
  };
  await refused({ match_json_path: { '$.items[': 'x' } }, /^match_json_path\["\$\.items\["\]: the JSONPath is malformed: unclosed bracketed selection \(RFC 9535 syntax/);
  await refused({ match_json_path: { "$[?(@.x = require('child_process'))]": { present: true } } }, /the JSONPath is malformed: .*never scripts\)$/);
  await refused({ match_json_path: { "$[?eval('1')]": { present: true } } }, /there is no function 'eval' \(filters may call length, count, value, match and search\)/);
  await refused({ match_json_path: { "$.a[?match(@, '(?<=x)y')]": { present: true } } }, /calls match\(\) with the pattern "\(\?<=x\)y", which uses a lookbehind/);
  await refused({ match_json_path: { [`$.${'a'.repeat(300)}`]: 1 } }, /paths may have at most 256/);
  await refused({ match_json_path: { '$.a': { regex: 'x' } } }, /^match_json_path\["\$\.a"\]: must be exactly one of \{equals: <value>\}, \{matches: "<regex>"\}, \{present: true\|false\}/);
  const rules = await send('PUT', '/__mock/overrides', [{ name: 'bad', match: { json_path: { 'items[0]': 1 } }, status: 500 }]);
  t.equal(rules.status, 400);
  t.match(rules.json.error, /^rules\[0\] \("bad"\): match\.json_path\["items\[0\]"\]: the JSONPath must start with \$/);
  const chaos = await send('PUT', '/__mock/api/chaos/config/faults', { enabled: true, request_matcher: { headers: [{ name: 'x-a', value: { matches: '(a)\\1' } }] } });
  t.equal(chaos.status, 400);
  t.match(chaos.json.error, /request_matcher\.headers\[0\]\.value: the pattern "\(a\)\\\\1" uses a backreference/);

  const bad = tmpdir();
  writeFileSync(path.join(bad, 'mock.yaml'), `specs: [${JSON.stringify(petstore)}]\nhttp:\n  routes:\n    - path: /x\n      match: { json_path: { "$..[?@.a = 1]": { present: true } } }\n      response: { status: 200 }\n`);
  const build = await runMock(['build', '-c', path.join(bad, 'mock.yaml'), '--out', path.join(bad, 'out')]);
  t.not(build.code, 0, 'mock build fails');
  t.match(build.stderr, /http\.routes\[0\]\.match\.json_path\["\$\.\.\[\?@\.a = 1\]"\]: the JSONPath is malformed: unexpected filter selector token '='/);
  t.notMatch(build.stderr, /\n\s+at /, 'no stack trace');
});

/** Median answer time of alternating requests with each body, so that load slows both alike (never an absolute time). */
async function slowdown(url, hostile, plain) {
  const times = { hostile: [], plain: [] };
  for (let i = 0; i < 9; i++) {
    for (const which of i % 2 === 0 ? ['hostile', 'plain'] : ['plain', 'hostile']) {
      const started = performance.now();
      const response = await send('POST', url, which === 'hostile' ? hostile : plain);
      times[which].push(performance.now() - started);
      if (response.status >= 500) throw new Error(`${which}: ${response.status} ${response.text}`);
    }
  }
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return median(times.hostile) / median(times.plain);
}

t.test('a hostile path on a hostile body answers in time proportional to the body', async (t) => {
  // nested filters and descendants: a power of the body's size without the bound
  const created = await send('POST', '/__mock/mocks', {
    id: 'hostile',
    method: 'POST',
    path: '/v1/hostile',
    match_json_path: { '$..[?@..[?@..[?@..*]]]': { equals: 'never' } },
    response: { body: { matched: true } },
  });
  t.equal(created.status, 201, created.text);
  t.teardown(() => send('DELETE', '/__mock/mocks/hostile'));
  const depth = 13;
  const hostile = JSON.stringify(Array.from({ length: depth }).reduce((v) => [v, v], 1)); // a complete binary tree of arrays
  const plain = JSON.stringify(Array.from({ length: 2 ** depth }, (_, i) => [i])); // as many values, flat
  const size = Math.max(hostile.length, plain.length);
  const pad = (body) => body + ' '.repeat(size - body.length);
  t.comment(`bodies of ${size} bytes`);
  const ratio = await slowdown('/v1/hostile', pad(hostile), pad(plain));
  t.ok(ratio < 25, `hostile body: ${ratio.toFixed(1)}x the answer time of a plain body of the same size`);
  const after = await send('GET', '/v1/pets');
  t.equal(after.status, 200, 'the server answers as before');
});
