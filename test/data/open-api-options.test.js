// `mock data open-api` options: --count, --status, --media-type, --seed and --now.
import t from 'tap';
import { parse as parseYaml } from 'yaml';
import { operationValidator, runData } from './helpers.js';

const PETSTORE = 'examples/petstore.yaml';

t.test('--count 1 prints one value, not an array; --status and --media-type pick the response', async (t) => {
  const [one, notFound, fallback, xml, example] = await Promise.all([
    runData(['open-api', '--spec', PETSTORE, '--endpoint', '/pets/{petId}']),
    runData(['open-api', '--spec', PETSTORE, '--endpoint', '/pets/{petId}', '--status', '404', '--count', '3']),
    runData(['open-api', '--spec', PETSTORE, '--endpoint', '/pets', '--status', 'default']),
    runData(['open-api', '--spec', PETSTORE, '--endpoint', '/pets/{petId}', '--media-type', 'application/xml', '--format', 'yaml']),
    runData(['open-api', '--spec', PETSTORE, '--endpoint', '/health', '--count', '2']),
  ]);
  for (const r of [one, notFound, fallback, xml, example]) t.equal(r.code, 0, r.stderr);

  const pet = JSON.parse(one.stdout);
  t.notOk(Array.isArray(pet), 'a single value');
  t.type(pet.name, 'string');
  t.type(pet.id, 'number');

  const { validate } = await operationValidator(PETSTORE, 'GET', '/pets/{petId}', { status: '404' });
  t.ok(JSON.parse(notFound.stdout).every((e) => validate(e) && Object.keys(e).sort().join() === 'code,message'), 'Error bodies of the 404');
  t.type(JSON.parse(fallback.stdout).code, 'number', 'the default response');
  t.type(parseYaml(xml.stdout).name, 'string', 'values of the XML media type, written as YAML');
  t.same(JSON.parse(example.stdout), [{ status: 'ok' }, { status: 'ok' }], 'no schema: the documented example, as the server answers');
});

t.test('--seed: the same output twice; another seed differs; MOCK_SEED works too', async (t) => {
  const args = ['open-api', '--spec', PETSTORE, '--endpoint', '/pets', '--count', '20'];
  const [a, b, c, env, pinned] = await Promise.all([
    runData([...args, '--seed', '42']),
    runData([...args, '--seed', '42']),
    runData([...args, '--seed', '43']),
    runData(args, { env: { MOCK_SEED: '42' } }),
    runData([...args, '--seed', '42', '--now', '2030-05-06T07:08:09Z']),
  ]);
  for (const r of [a, b, c, env]) t.equal(r.code, 0, r.stderr);
  t.equal(a.stdout, b.stdout, 'byte-identical, date-time values included (the seed pins the clock)');
  t.not(a.stdout, c.stdout, 'another seed, other values');
  t.equal(env.stdout, a.stdout, 'MOCK_SEED is the same as --seed');
  t.match(a.stdout, /"created_at": "2025-01-01T00:00:00.000Z"/, 'the seeded clock');

  t.match(pinned.stdout, /"created_at": "2030-05-06T07:08:09.000Z"/, '--now pins the clock');
  t.equal(pinned.stdout.replaceAll('2030-05-06T07:08:09.000Z', '2025-01-01T00:00:00.000Z'), a.stdout, 'and changes nothing else');
});
