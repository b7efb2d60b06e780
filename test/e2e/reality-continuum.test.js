// The reality continuum through `mock serve` with a real upstream on loopback, merge_strategy
// field_level: the share of fields from the upstream over 10,000 requests, blended bodies that
// still validate against their schema, X-Mock-Source on every continuum answer, the fallbacks,
// every level of the ratio's precedence, the time-based ratio following the virtual clock
// (POST /api/v2/time/*), every /__mock/continuum/* endpoint, and the start error without an upstream.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';
import { CONTINUUM_SPEC, FIELD_COUNT, ITEMS, ITEM_SCHEMA, getMany, startUpstream } from '../helpers/continuum.js';

const upstream = await startUpstream(t);
const dir = tmpdir();
writeFileSync(path.join(dir, 'continuum.yaml'), CONTINUUM_SPEC);
const START = '2030-01-01T00:00:00Z';
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `specs: [continuum.yaml]
proxy: { upstream_url: "${upstream.url}" }
time_travel: { enabled: true, initial_time: "${START}" }
reality_continuum:
  enabled: true
  default_ratio: 0
  transition_mode: time_based
  merge_strategy: field_level
  time_schedule: { start_time: "${START}", end_time: "2030-01-01T10:00:00Z" }
  routes:
    - { pattern: /r/route/*, ratio: 1, group: grp }
    - { pattern: /r/group/*, group: grp }
    - { pattern: /r/schedule/* }
    - { pattern: /r/blend/*, ratio: 0.5 }
    - { pattern: /r/flaky/*, ratio: 0.5 }
    - { pattern: /fields/*, ratio: 0.3 }
    - { pattern: /text/*, ratio: 0.5 }
    - { pattern: /gone/**, ratio: 0.5 }
  groups: { grp: 0 }
`,
);
const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', path.join(dir, 'out'), '--admin', '--admin-port', '0'], { cwd: dir });
t.teardown(() => server.stop());

const get = async (target) => {
  const res = await fetch(`${server.url}${target}`);
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, source: res.headers.get('x-mock-source'), body };
};
const admin = async (method, endpoint, body) => {
  const res = await fetch(`${server.adminUrl}${endpoint}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, ...(await res.json()) };
};
const ratio = async (path) => (await admin('GET', `/__mock/continuum/ratio?path=${encodeURIComponent(path)}`)).data;
const setTime = (time) => admin('POST', '/api/v2/time/set', { time });

t.test('field_level at 0.3: 30% of the fields come from the upstream over 10,000 requests (±1.5 points)', async (t) => {
  const answers = await getMany(Array.from({ length: 10_000 }, (_, i) => `${server.url}/fields/${i}`));
  t.ok(answers.every((a) => a.status === 200 && a.source === 'blend'), 'every answer is a blend and says so');
  let fromUpstream = 0;
  for (const { body } of answers) fromUpstream += Object.values(JSON.parse(body)).filter((v) => v === 'upstream').length;
  const share = fromUpstream / (answers.length * FIELD_COUNT);
  t.ok(Math.abs(share - 0.3) <= 0.015, `upstream share ${(share * 100).toFixed(2)}%`);
});

t.test('blended bodies validate against their schema; identifiers, enums and integers are one side’s', async (t) => {
  const validate = addFormats.default(new Ajv({ allErrors: true })).compile(ITEM_SCHEMA);
  const answers = await getMany(Array.from({ length: 300 }, (_, i) => `${server.url}/r/blend/${i}`));
  const seen = { mock: 0, upstream: 0 };
  for (const { source, body } of answers) {
    t.equal(source, 'blend');
    const item = JSON.parse(body);
    if (!validate(item)) t.fail(`invalid blend ${body}: ${JSON.stringify(validate.errors)}`);
    for (const key of ['id', 'status', 'count', 'score', 'name']) {
      const side = JSON.stringify(item[key]) === JSON.stringify(ITEMS.mock[key]) ? 'mock' : JSON.stringify(item[key]) === JSON.stringify(ITEMS.upstream[key]) ? 'upstream' : undefined;
      if (side === undefined) t.fail(`${key}: ${JSON.stringify(item[key])} is neither side's`);
      else seen[side]++;
    }
    t.ok([ITEMS.mock.owner.id, ITEMS.upstream.owner.id].includes(item.owner.id) && ['gold', 'silver'].includes(item.owner.level), 'nested fields too');
    t.ok(item.tags.every((tag, i) => tag === ITEMS.mock.tags[i] || tag === ITEMS.upstream.tags[i]), 'arrays of equal length item by item');
  }
  t.ok(seen.mock > 500 && seen.upstream > 500, `both sides contribute (${seen.mock} mock, ${seen.upstream} upstream fields)`);
});

t.test('fallbacks and X-Mock-Source: only JSON blends, one failed side gives the other, both failing a 502', async (t) => {
  const text = await getMany(Array.from({ length: 40 }, (_, i) => `${server.url}/text/${i}`));
  t.ok(text.every((a) => (a.source === 'mock' && a.body === 'from the mock') || (a.source === 'upstream' && a.body === 'from the upstream')), 'text is drawn whole');
  t.ok(text.some((a) => a.source === 'mock') && text.some((a) => a.source === 'upstream'));
  t.same(await get('/r/flaky/1'), { status: 200, source: 'mock', body: ITEMS.mock }, 'the upstream answered 503: the mock');
  t.same(await get('/gone/1'), { status: 200, source: 'upstream', body: { gone: 'upstream' } }, 'the description has no such path (mock 404): the upstream');
  const failed = await get('/gone/fail');
  t.same([failed.status, failed.source, failed.body.code], [502, 'mock', 'MOCK_ERR_CONTINUUM_FAILED']);
  t.match(failed.body.detail, /^the reality continuum has no answer: the mock answered 404 \(MOCK_ERR_ROUTE_NOT_FOUND.*\) and the upstream 500$/);
  const plain = await get('/r/plain/1');
  t.same([plain.source, plain.body], [null, ITEMS.mock], 'a path no route rule matches is not the continuum’s: no X-Mock-Source');
});

t.test('precedence: manual override > route rule > group override > time schedule', async (t) => {
  t.match(await ratio('/r/route/1'), { blend_ratio: 1, level: 'route' });
  t.equal((await get('/r/route/1')).source, 'upstream', 'route ratio 1: the upstream');
  t.match(await ratio('/r/group/1'), { blend_ratio: 0, level: 'group' }, "a rule without a ratio takes its group's");
  t.equal((await get('/r/group/1')).source, 'mock');
  t.match(await ratio('/r/schedule/1'), { level: 'schedule' }, 'no ratio, no group: the schedule');
  const manual = await admin('PUT', '/__mock/continuum/ratio', { path: '/r/route/*', ratio: 0 });
  t.match(manual, { status: 200, success: true, data: { path: '/r/route/*', blend_ratio: 0, level: 'manual' } });
  t.equal((await get('/r/route/1')).source, 'mock', 'the manual override beats the route rule');
  await admin('PUT', '/__mock/continuum/ratio', { path: '/r/route/*', ratio: null });
  t.match(await ratio('/r/route/1'), { blend_ratio: 1, level: 'route' }, 'removed: the route rule again');
  t.same((await admin('PUT', '/__mock/continuum/ratio', { group: 'grp', ratio: 1 })).data, { group: 'grp', ratio: 1 });
  t.match(await ratio('/r/group/1'), { blend_ratio: 1, level: 'group' });
  t.equal((await get('/r/group/1')).source, 'upstream', 'the group override set at run time');
  t.match(await ratio('/r/route/1'), { blend_ratio: 1, level: 'route' }, 'the route rule beats its own group');
  await admin('PUT', '/__mock/continuum/ratio', { group: 'grp', ratio: 0 });
});

t.test('time_based: the ratio follows the virtual clock that /api/v2/time moves', async (t) => {
  await setTime('2029-12-31T00:00:00Z');
  t.match(await ratio('/r/schedule/1'), { blend_ratio: 0, level: 'schedule' }, 'before the schedule: start_ratio');
  t.equal((await get('/r/schedule/1')).source, 'mock');
  await setTime(START);
  const near = (t, actual, expected, what) => t.ok(Math.abs(actual - expected) < 0.001, `${what}: ${actual}`);
  near(t, (await ratio('/r/schedule/1')).blend_ratio, 0, 'at start_time');
  await admin('POST', '/api/v2/time/advance', { duration: '1h' });
  near(t, (await ratio('/r/schedule/1')).blend_ratio, 0.1, 'an hour in (linear over 10 h)');
  await admin('POST', '/api/v2/time/advance', { duration: '4h' });
  near(t, (await ratio('/r/schedule/1')).blend_ratio, 0.5, 'five hours in');
  t.equal((await get('/r/schedule/1')).source, 'blend');
  await admin('POST', '/api/v2/time/advance', { duration: '6h' });
  t.match(await ratio('/r/schedule/1'), { blend_ratio: 1 }, 'past end_time: end_ratio');
  t.equal((await get('/r/schedule/1')).source, 'upstream');
});

t.test('every /__mock/continuum endpoint', async (t) => {
  t.same((await ratio('/r/route/1')), { path: '/r/route/1', blend_ratio: 1, enabled: true, transition_mode: 'time_based', merge_strategy: 'field_level', default_ratio: 0, level: 'route' }, 'GET ratio: the spec’s fields and the level');
  t.match(await admin('GET', '/__mock/continuum/ratio'), { status: 400, success: false, error: /give the path as a query parameter/ });
  t.match(await admin('PUT', '/__mock/continuum/ratio', { ratio: 0.5 }), { status: 400, error: /give either path \(a path glob\) or group/ });
  t.match(await admin('PUT', '/__mock/continuum/ratio', { path: '/x', ratio: 2 }), { status: 400, error: /ratio/ });
  t.same((await admin('GET', '/__mock/continuum/schedule')).data, { start_time: START, end_time: '2030-01-01T10:00:00Z', start_ratio: 0, end_ratio: 1, curve: 'linear' }, 'GET schedule, defaults filled in');
  const schedule = { start_time: '2031-01-01T00:00:00Z', end_time: '2031-01-02T00:00:00Z', start_ratio: 0.2, end_ratio: 0.4, curve: 'sigmoid' };
  t.same((await admin('PUT', '/__mock/continuum/schedule', schedule)).data, schedule, 'PUT schedule');
  await setTime('2031-01-01T12:00:00Z');
  t.ok(Math.abs((await ratio('/r/schedule/1')).blend_ratio - 0.3) < 0.001, 'the new schedule applies: sigmoid half-way');
  t.match(await admin('PUT', '/__mock/continuum/schedule', { ...schedule, end_time: '2030-01-01T00:00:00Z' }), { status: 400, error: /end_time: expected an instant after start_time/ });
  t.match(await admin('PUT', '/__mock/continuum/schedule', { start_time: START }), { status: 400, error: /needs field "end_time"/ });
  t.match((await admin('POST', '/__mock/continuum/advance', { increment: 0.25 })).data, { default_ratio: 0.25 }, 'POST advance steps the default ratio');
  t.match((await admin('POST', '/__mock/continuum/advance', { increment: -1 })).data, { default_ratio: 0 }, 'never below 0');
  t.match(await admin('POST', '/__mock/continuum/advance', { increment: 'a lot' }), { status: 400 });
  t.match((await admin('PUT', '/__mock/continuum/enabled', { enabled: false })).data, { enabled: false });
  t.same(await get('/r/route/1'), { status: 200, source: null, body: ITEMS.mock }, 'off: the mock alone, no X-Mock-Source');
  t.match((await admin('PUT', '/__mock/continuum/enabled', { enabled: true })).data, { enabled: true });
  t.equal((await get('/r/route/1')).source, 'upstream', 'on again');
});

t.test('without an upstream, mock serve stops with one line naming the setting', async (t) => {
  const bare = tmpdir();
  writeFileSync(path.join(bare, 'continuum.yaml'), CONTINUUM_SPEC);
  writeFileSync(path.join(bare, 'mock.yaml'), 'specs: [continuum.yaml]\nreality_continuum: { enabled: true }\n');
  const res = await runMock(['serve', '--out', path.join(bare, 'out'), '--http-port', '0'], { cwd: bare, env: { MOCK_PROXY_UPSTREAM: '' } });
  t.equal(res.code, 1);
  t.equal(res.stderr.trim(), 'mock.yaml: reality_continuum.enabled: the reality continuum needs an upstream: set proxy.upstream_url in mock.yaml (or MOCK_PROXY_UPSTREAM, or --proxy-target)');
});
