// `mock serve --seed` answers the same bytes run after run: generated values and the clock
// (date-time fields, {{now}}) included; --now pins the clock to another instant.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMock, tmpdir } from '../helpers/cli.js';

const event = { type: 'object', required: ['id', 'at', 'day', 'name', 'score'], properties: { id: { type: 'string', format: 'uuid' }, at: { type: 'string', format: 'date-time' }, day: { type: 'string', format: 'date' }, name: { type: 'string' }, score: { type: 'number' } } };
const description = {
  openapi: '3.0.3',
  info: { title: 'events', version: '1' },
  paths: { '/events': { get: { responses: { 200: { description: 'events', content: { 'application/json': { schema: { type: 'array', minItems: 3, maxItems: 3, items: event } } } } } } } },
};

const dir = tmpdir();
writeFileSync(path.join(dir, 'events.json'), JSON.stringify(description));
writeFileSync(path.join(dir, 'mock.yaml'), 'specs: [events.json]\nresponse_template_expand: true\nhttp:\n  routes:\n    - { path: /clock, response: { body: { now: "{{now}}", later: "{{now+1d}}" } } }\n');
const out = path.join(dir, 'out');

async function transcript(args) {
  const server = await startMock(['--out', out, ...args], { cwd: dir });
  try {
    const bodies = [];
    for (const target of ['/events', '/clock', '/events', '/events']) bodies.push(await (await fetch(server.url + target)).text());
    return bodies;
  } finally {
    await server.stop();
  }
}

t.test('two runs with the same seed answer identical bytes', async (t) => {
  const first = await transcript(['--seed', '7']);
  const second = await transcript(['--seed', '7']);
  t.same(second, first, 'byte for byte');
  t.not(first[0], first[2], 'successive answers still differ');
  t.same(JSON.parse(first[1]), { now: '2025-01-01T00:00:00.000Z', later: '2025-01-02T00:00:00.000Z' }, 'a seed pins the clock');
  const at = Date.parse(JSON.parse(first[0])[0].at);
  t.ok(at <= Date.parse('2025-01-01T00:00:00.000Z'), 'date-time values count from the pinned clock');
  const other = await transcript(['--seed', '8']);
  t.not(other[0], first[0], 'another seed, other values');
});

t.test('--now pins the clock to another instant', async (t) => {
  const bodies = await transcript(['--seed', '7', '--now', '2030-06-01T12:00:00Z']);
  t.same(JSON.parse(bodies[1]).now, '2030-06-01T12:00:00.000Z');
  for (const e of JSON.parse(bodies[0])) t.ok(Date.parse(e.at) <= Date.parse('2030-06-01T12:00:00Z') && Date.parse(e.at) > Date.parse('2028-01-01T00:00:00Z'), `${e.at} is near the pinned instant`);
  const bad = await startMock(['--out', out, '--now', 'tomorrow'], { cwd: dir }).catch((e) => e);
  t.match(bad.stderr, /--now: expected an ISO 8601 instant such as 2025-01-01T00:00:00Z/);
});
