// runtime/chain/continuum: the merge strategies (field_level, body_blend) as pure functions of two
// JSON values and a stream of draws, and how one answer is made from the two sources (blend.ts).
import t from 'tap';
import { bodyBlendMerge, continuumAnswer, fieldLevelMerge } from '../../../dist/runtime/chain/continuum/index.js';
import { createFastRandomizer } from '../../../dist/common/generate/fast-randomizer.js';

/** Draws from a list, in order (then from the start again). */
const draws = (...values) => {
  let i = 0;
  return () => values[i++ % values.length];
};
const seeded = (seed) => {
  const random = createFastRandomizer(seed);
  return () => random.next();
};

const mock = { id: 1, uuid: 'm-uuid', kind: 'cat', count: 2, price: 10.5, name: 'Tom', owner: { id: 'm-owner', score: 0.25 }, tags: ['a', 'b'], extra: 'mock only' };
const upstream = { id: 7, uuid: 'u-uuid', kind: 'dog', count: 5, price: 20.5, name: 'Rex', owner: { id: 'u-owner', score: 0.75 }, tags: ['x'], more: 'upstream only' };

t.test('field_level: each field whole from one side, upstream when the draw is below the ratio', async (t) => {
  t.same(fieldLevelMerge(mock, upstream, 0.5, () => 0.9), { ...mock }, 'every draw says mock: the mock body (keys only upstream has are left out)');
  t.same(fieldLevelMerge(mock, upstream, 0.5, () => 0.1), { ...upstream }, 'every draw says upstream: the upstream body');
  const merged = fieldLevelMerge(mock, upstream, 0.5, seeded(3));
  for (const [key, value] of Object.entries(merged)) {
    if (key === 'owner') {
      t.ok(['m-owner', 'u-owner'].includes(value.id) && [0.25, 0.75].includes(value.score), 'nested objects merge field by field');
      continue;
    }
    t.ok([mock[key], upstream[key]].some((v) => JSON.stringify(v) === JSON.stringify(value)), `${key}: one side's value, never a mix`);
  }
  t.same(fieldLevelMerge([{ a: 1 }, { a: 2 }], [{ a: 3 }, { a: 4 }], 0.5, draws(0.9, 0.1)), [{ a: 1 }, { a: 4 }], 'arrays of equal length merge item by item');
  t.same(fieldLevelMerge({ list: [1, 2] }, { list: [3] }, 0.5, () => 0.1), { list: [3] }, 'arrays of different lengths are taken whole');
  t.same(fieldLevelMerge({ a: { b: 1 } }, { a: 'text' }, 0.5, () => 0.9), { a: { b: 1 } }, 'different types: whole');
});

t.test('field_level: the share of fields from the upstream is the ratio', async (t) => {
  const left = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, 'mock']));
  const right = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, 'upstream']));
  const draw = seeded(42);
  let fromUpstream = 0;
  for (let i = 0; i < 1000; i++) fromUpstream += Object.values(fieldLevelMerge(left, right, 0.3, draw)).filter((v) => v === 'upstream').length;
  t.ok(Math.abs(fromUpstream / 100_000 - 0.3) < 0.005, `${fromUpstream / 1000}% of 100,000 fields from the upstream`);
});

t.test('body_blend: non-integer numbers that are no identifiers are averaged by the ratio, the rest as field_level', async (t) => {
  const merged = bodyBlendMerge(mock, upstream, 0.25, () => 0.9);
  t.equal(merged.price, 10.5 * 0.75 + 20.5 * 0.25, 'price: weighted average');
  t.equal(merged.owner.score, 0.25 * 0.75 + 0.75 * 0.25, 'nested numbers too');
  t.equal(merged.count, 2, 'integers are never averaged');
  t.equal(merged.id, 1, 'identifiers neither');
  t.equal(merged.kind, 'cat', 'enums (strings) are drawn');
  const ids = bodyBlendMerge({ user_id: 1.5, orderId: 2.5, uuid: 0.5, paid: 1.5 }, { user_id: 3.5, orderId: 4.5, uuid: 1.5, paid: 2.5 }, 0.5, () => 0.9);
  t.same(ids, { user_id: 1.5, orderId: 2.5, uuid: 0.5, paid: 2 }, 'user_id, orderId and uuid are identifiers; paid is not');
  t.same(bodyBlendMerge({ scores: [1.5, 2.5] }, { scores: [3.5, 4.5] }, 0.5, () => 0.9), { scores: [2.5, 3.5] }, 'items of number arrays too');
});

const json = (body, status = 200) => ({ status, headers: [['content-type', 'application/json']], body: JSON.stringify(body) });
const text = (body, status = 200) => ({ status, headers: [['content-type', 'text/plain']], body });
const sources = (m, u, asked = []) => ({
  mock: () => (asked.push('mock'), m),
  upstream: async () => (asked.push('upstream'), u),
});
const settings = (over = {}) => ({ ratio: 0.5, strategy: 'field_level', draw: () => 0.9, valid: () => true, ...over });

t.test('one answer from two sources: blend, fallbacks, both failed', async (t) => {
  const blended = await continuumAnswer(sources(json({ a: 1, b: 2 }), json({ a: 3, b: 4 })), settings({ draw: draws(0.1, 0.9, 0.9) }));
  t.equal(blended.source, 'blend');
  t.same(JSON.parse(blended.answer.body), { a: 3, b: 2 });
  const onlyUpstream = await continuumAnswer(sources(json({ code: 404 }, 404), json({ a: 3 })), settings());
  t.same([onlyUpstream.source, onlyUpstream.answer.status], ['upstream', 200], 'the mock failed: the upstream');
  const onlyMock = await continuumAnswer(sources(json({ a: 1 }), json({}, 502)), settings());
  t.same([onlyMock.source, onlyMock.answer.status], ['mock', 200], 'the upstream failed: the mock');
  const none = await continuumAnswer(sources({ ...json({}, 404), code: 'MOCK_ERR_ROUTE_NOT_FOUND' }, { ...json({}, 504), code: 'MOCK_ERR_UPSTREAM_TIMEOUT', error: 'no answer within 1s' }), settings());
  t.equal(none.answer.status, 502);
  t.equal(none.answer.code, 'MOCK_ERR_CONTINUUM_FAILED');
  t.match(JSON.parse(none.answer.body).detail, 'the mock answered 404 (MOCK_ERR_ROUTE_NOT_FOUND) and the upstream 504 (MOCK_ERR_UPSTREAM_TIMEOUT: no answer within 1s)');
  const notJson = await continuumAnswer(sources(text('m'), text('u')), settings({ draw: () => 0.1 }));
  t.same([notJson.source, notJson.answer.body], ['upstream', 'u'], 'only JSON is blended: other bodies are drawn whole');
  const invalid = await continuumAnswer(sources(json({ a: 1 }), json({ a: 2 })), settings({ ratio: 0.7, valid: () => false }));
  t.equal(invalid.source, 'upstream', 'a blend that breaks its schema gives way to the source with the larger share');
});

t.test('weighted, and ratios 0 and 1: one source asked, the other only when it fails', async (t) => {
  let asked = [];
  const weighted = await continuumAnswer(sources(json({ a: 1 }), json({ a: 2 }), asked), settings({ strategy: 'weighted', draw: () => 0.2 }));
  t.same([weighted.source, asked], ['upstream', ['upstream']]);
  asked = [];
  const fallback = await continuumAnswer(sources(json({ a: 1 }), json({}, 503), asked), settings({ strategy: 'weighted', draw: () => 0.2 }));
  t.same([fallback.source, asked], ['mock', ['upstream', 'mock']]);
  asked = [];
  const allMock = await continuumAnswer(sources(json({ a: 1 }), json({ a: 2 }), asked), settings({ ratio: 0 }));
  t.same([allMock.source, asked], ['mock', ['mock']], 'field_level at ratio 0: the mock alone');
  asked = [];
  const allUpstream = await continuumAnswer(sources(json({ a: 1 }), json({ a: 2 }), asked), settings({ ratio: 1, draw: () => 0.99 }));
  t.same([allUpstream.source, asked], ['upstream', ['upstream']], 'field_level at ratio 1: the upstream alone');
});
