// Time travel through the real CLI: time_travel in mock.yaml starts the virtual clock, which
// {{now}}, generated date-times and recorded fixtures read; /api/v2/time/set, advance and enable
// on the admin port move it; a schedule step jumps it once virtual time reaches it.
import t from 'tap';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, startMock, tmpdir } from '../helpers/cli.js';

const dir = tmpdir();
writeFileSync(
  path.join(dir, 'mock.yaml'),
  `specs: [${JSON.stringify(path.join(root, 'examples', 'petstore.yaml'))}]
response_template_expand: true
http:
  routes:
    - { method: GET, path: /v1/clock, response: { status: 200, body: { now: "{{now}}" } } }
core: { fixtures: { dir: ./fixtures, record_enabled: true, record_get_only: true } }
time_travel:
  enabled: true
  initial_time: "2030-01-01T00:00:00Z"
  scale_factor: 1
  schedule: [{ at: "2030-01-02T00:00:00Z", jump_to: "2031-06-01T12:00:00Z" }]
`,
);
const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', path.join(dir, 'out'), '--admin', '--admin-port', '0'], { cwd: dir });
t.teardown(() => server.stop());

const clock = async () => Date.parse((await (await fetch(`${server.url}/v1/clock`)).json()).now);
const near = (t, actual, expected, what) => t.ok(Math.abs(actual - expected) < 60_000, `${what}: ${new Date(actual).toISOString()} is ${new Date(expected).toISOString()} give or take a minute`);
const time = async (step, body) => {
  const res = await fetch(`${server.adminUrl}/api/v2/time/${step}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};

t.test('time_travel starts the virtual clock at initial_time', async (t) => {
  near(t, await clock(), Date.parse('2030-01-01T00:00:00Z'), '{{now}}');
  const pets = await (await fetch(`${server.url}/v1/pets?limit=5`)).json();
  t.ok(pets.length > 0, 'generated pets');
  for (const pet of pets.filter((p) => p.created_at !== undefined)) t.ok(Date.parse(pet.created_at) <= Date.parse('2030-01-01T00:01:00Z') && Date.parse(pet.created_at) > Date.parse('2020-01-01T00:00:00Z'), `generated created_at ${pet.created_at} is around virtual now`);
  const config = await (await fetch(`${server.adminUrl}/__mock/config`)).json();
  t.match(config.data.time, { enabled: true, scale_factor: 1 }, 'GET /__mock/config shows the clock');
  near(t, Date.parse(config.data.time.virtual_time), Date.parse('2030-01-01T00:00:00Z'), 'and its virtual time');
  const dashboard = await (await fetch(`${server.adminUrl}/__mock/dashboard`)).json();
  t.equal(dashboard.data.time.enabled, true, 'the dashboard data too');
});

t.test('advance and set move it; a schedule step jumps it once reached', async (t) => {
  const advanced = await time('advance', { duration: '2h' });
  t.equal(advanced.status, 200, 'POST /api/v2/time/advance');
  t.match(advanced.body.data.message, 'advanced by 2h');
  near(t, await clock(), Date.parse('2030-01-01T02:00:00Z'), 'two virtual hours later');

  const set = await time('set', { time: '2030-01-01T23:59:59Z' });
  t.equal(set.status, 200, 'POST /api/v2/time/set');
  await new Promise((resolve) => setTimeout(resolve, 1200));
  near(t, await clock(), Date.parse('2031-06-01T12:00:00Z'), 'the schedule jumped once 2030-01-02 was reached');

  await (await fetch(`${server.url}/v1/pets/1`)).arrayBuffer();
  const folder = path.join(dir, 'fixtures', 'http');
  let recorded;
  for (let i = 0; i < 100 && recorded === undefined; i++) {
    recorded = readdirSync(folder).find((n) => n.startsWith('get-v1-pets-1-') && n.endsWith('.json'));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  near(t, Date.parse(JSON.parse(readFileSync(path.join(folder, recorded), 'utf8')).timestamp), Date.parse('2031-06-01T12:00:00Z'), 'recorded fixtures are stamped with virtual time');
});

t.test('bad input is refused with what is wrong; enable false is the real clock again', async (t) => {
  const vague = await time('advance', { duration: 'soon' });
  t.equal(vague.status, 400);
  t.match(vague.body.error, /duration "soon" is not a duration such as/);
  // a duration past what a date holds (400 nines of days is Infinity) used to be stored and break every reader of the clock
  for (const duration of [`${'9'.repeat(400)}d`, '110000000d']) {
    const far = await time('advance', { duration });
    t.equal(far.status, 400, `advance by ${duration.slice(0, 12)}… is refused`);
    t.match(far.body.error, /would pass the last instant a date holds \(\+275760-09-13T00:00:00\.000Z\)/);
    t.ok(far.body.error.length < 300, 'the error cuts the client\'s value');
  }
  const after = await fetch(`${server.adminUrl}/api/v2/time`);
  t.equal(after.status, 200, 'GET /api/v2/time still answers');
  t.ok(Number.isFinite(Date.parse((await after.json()).data.virtual_time)), 'with a valid virtual time');
  t.equal((await fetch(`${server.adminUrl}/__mock/config`)).status, 200, 'and so does GET /__mock/config');
  t.ok(Number.isFinite(await clock()), '{{now}} is a date');
  const when = await time('set', { time: 'tomorrow' });
  t.equal(when.status, 400);
  t.match(when.body.error, /not an ISO 8601 instant/);
  const off = await time('enable', { enabled: false });
  t.equal(off.status, 200);
  t.equal(off.body.data.enabled, false);
  near(t, await clock(), Date.now(), 'the real clock');
  const on = await fetch(`${server.adminUrl}/__mock/time/enable`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"enabled":true}' });
  t.equal(on.status, 200, 'the same endpoints answer under /__mock/time/');
});
