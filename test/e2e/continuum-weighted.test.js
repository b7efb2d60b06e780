// The reality continuum's weighted strategy through `mock serve`, the upstream given by
// MOCK_PROXY_UPSTREAM as the spec writes it: over 10,000 requests at ratio 0.3 the upstream answers
// 30% of them (±1.5 points), each answer whole from one source and saying which; with --seed two
// servers draw the same sequence of sources; the default ratio is the last level of the precedence
// and POST /__mock/continuum/advance steps it.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, startMock, tmpdir } from '../helpers/cli.js';
import { CONTINUUM_SPEC, ITEMS, getMany, startUpstream } from '../helpers/continuum.js';

const upstream = await startUpstream(t);
const dir = tmpdir();
writeFileSync(path.join(dir, 'continuum.yaml'), CONTINUUM_SPEC);
writeFileSync(
  path.join(dir, 'mock.yaml'),
  'specs: [continuum.yaml]\nproxy: { enabled: false }\nreality_continuum: { enabled: true, default_ratio: 0.3, transition_mode: manual, merge_strategy: weighted }\n',
);
const env = { MOCK_PROXY_UPSTREAM: upstream.url };
const out = await buildOnce(path.join(dir, 'continuum.yaml'), { cwd: dir, env });
const start = () => startMock(['-c', path.join(dir, 'mock.yaml'), '--out', out, '--seed', '42', '--admin-embed'], { cwd: dir, env });
const [first, second] = await Promise.all([start(), start()]);
t.teardown(() => Promise.all([first.stop(), second.stop()]));

/** The sources of `count` requests sent one after another. */
async function sequence(server, count) {
  const sources = [];
  for (let i = 0; i < count; i++) sources.push((await fetch(`${server.url}/r/x/${i}`)).headers.get('x-mock-source'));
  return sources;
}

t.test('with --seed, the sequence of sources repeats', async (t) => {
  const [a, b] = await Promise.all([sequence(first, 200), sequence(second, 200)]);
  t.same(a, b, 'two servers with seed 42 answer from the same sources in the same order');
  t.ok(a.includes('mock') && a.includes('upstream'));
});

t.test('at ratio 0.3 the upstream answers 30% of 10,000 requests (±1.5 points), each answer whole', async (t) => {
  const answers = await getMany(Array.from({ length: 10_000 }, (_, i) => `${first.url}/r/x/${i}`));
  const upstreamShare = answers.filter((a) => a.source === 'upstream').length / answers.length;
  t.ok(Math.abs(upstreamShare - 0.3) <= 0.015, `upstream share ${(upstreamShare * 100).toFixed(2)}%`);
  t.ok(
    answers.every((a) => a.status === 200 && JSON.parse(a.body).name === (a.source === 'upstream' ? ITEMS.upstream.name : ITEMS.mock.name)),
    'every answer is one source’s, as X-Mock-Source says',
  );
});

t.test('no route rule: the default ratio, which advance steps', async (t) => {
  const ratio = async () => (await (await fetch(`${first.url}/__mock/continuum/ratio?path=/r/x/1`)).json()).data;
  t.same(await ratio(), { path: '/r/x/1', blend_ratio: 0.3, enabled: true, transition_mode: 'manual', merge_strategy: 'weighted', default_ratio: 0.3, level: 'default' });
  const res = await fetch(`${first.url}/__mock/continuum/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ increment: 0.7 }) });
  t.match((await res.json()).data, { default_ratio: 1, blend_ratio: 1 });
  const answers = await getMany(Array.from({ length: 50 }, (_, i) => `${first.url}/r/x/${i}`));
  t.ok(answers.every((a) => a.source === 'upstream'), 'ratio 1: all upstream');
});
