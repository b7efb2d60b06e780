// Which documented response an operation answers by default, through `mock build` and `mock serve`:
// the first 2xx, else the first 3xx, else `default`, else the first documented status (a range answers its lowest
// code), never an invented 204; no responses at all answers 204 with a build warning; a
// description without operations builds with a warning that nothing will be served.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { corpus, runMock, startMock, tmpdir } from '../helpers/cli.js';

const json = (example) => ({ content: { 'application/json': { example } } });
const description = {
  openapi: '3.1.0',
  info: { title: 'statuses', version: '1' },
  paths: {
    '/todos': { get: { responses: { '5XX': { description: 'down', ...json({ error: 'down' }) }, '4XX': { description: 'bad', ...json({ error: 'bad' }) } } } },
    '/errors-first': { get: { responses: { 404: { description: 'missing', ...json({ error: 'missing' }) }, default: { description: 'anything', ...json({ any: true }) } } } },
    '/redirect': { get: { responses: { '4XX': { description: 'bad' }, '3XX': { description: 'moved' } } } },
    '/late-success': { get: { responses: { 404: { description: 'missing' }, 201: { description: 'made', ...json({ made: true }) } } } },
    '/nothing': { get: {} },
  },
};

const dir = tmpdir();
writeFileSync(path.join(dir, 'statuses.json'), JSON.stringify(description));
const out = path.join(dir, 'out');
const built = await runMock(['build', '--spec', 'statuses.json', '--out', out], { cwd: dir });
const server = await startMock(['--spec', 'statuses.json', '--out', out], { cwd: dir });
t.teardown(() => server.stop());

t.test('the default answer follows the description', async (t) => {
  const cases = [
    ['/todos', 500, { error: 'down' }, 'only 5XX and 4XX: the first documented, its lowest code'],
    ['/errors-first', 200, { any: true }, 'no 2xx: default'],
    ['/redirect', 300, undefined, 'no 2xx: a redirect wins over errors written before it'],
    ['/late-success', 201, { made: true }, 'a 2xx wins wherever it is written'],
    ['/nothing', 204, undefined, 'no responses at all: 204'],
  ];
  for (const [target, status, body, what] of cases) {
    const res = await fetch(server.url + target);
    t.equal(res.status, status, `${target}: ${what}`);
    const text = await res.text();
    if (body !== undefined) t.same(JSON.parse(text), body);
  }
  t.equal(built.code, 0);
  t.match(built.stderr, /warning: GET \/nothing documents no responses; it answers 204 No Content/);
});

t.test('a description with webhooks only builds, warning that nothing will be served', async (t) => {
  const run = await runMock(['build', '--spec', path.join(corpus, 'openapi', 'oai-v3.1-webhook-example.yaml'), '--out', path.join(tmpdir(), 'wh')]);
  t.equal(run.code, 0);
  t.match(run.stderr, /warning: the descriptions define no operations \(webhooks or components only\): nothing will be served/);
});
