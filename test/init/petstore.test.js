// `mock init <name>` without --blueprint scaffolds the petstore project, which serves at once.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ISO_INSTANT, configValidates, smokePasses, everyOperationAnswers, get, initAndServe, send } from './project.js';

t.test('the default blueprint (petstore) serves at once and passes mock config validate', async (t) => {
  const { dir, server, stdout } = await initAndServe(t, 'my-pets');
  t.match(stdout, 'from the petstore blueprint');
  t.match(stdout, /Next: cd my-pets && (mock|npx mock-compiler|node \S+) serve\n$/, 'the exact command: target.test.js');
  t.match(readFileSync(path.join(dir, 'README.md'), 'utf8'), /^# my-pets\n/);
  t.match(readFileSync(path.join(dir, 'api.yaml'), 'utf8'), 'title: "my-pets pet store"');

  const list = await get(server, '/v1/pets');
  t.equal(list.status, 200);
  t.same((await list.json()).map((p) => p.name), ['Tom', 'Rex'], 'the documented example');
  const dog = await get(server, '/v1/pets/2', { prefer: 'example=dog' });
  t.match(await dog.json(), { id: 2, name: 'Rex', species: 'dog', status: 'adopted' });
  const bad = await send(server, 'POST', '/v1/pets', { name: 'Nemo', species: 'fish' });
  t.equal(bad.status, 400, 'validation enforces the species enum');
  t.equal(bad.headers.get('x-mock-error-code'), 'MOCK_ERR_REQUEST_INVALID');
  t.match(bad.headers.get('x-mock-error-detail'), 'species');
  t.match(await bad.json(), { title: 'Request validation failed', status: 400, detail: /species/ }, "the blueprint documents RFC 9457 problem details: mock's problem body, which says what is wrong");

  const missing = await get(server, '/v1/pets/7', { 'x-mock-scenario': 'not-found' });
  t.equal(missing.status, 404, 'custom route with a header condition');
  t.equal(missing.headers.get('content-type'), 'application/problem+json');
  t.same(await missing.json(), { title: 'Not Found', status: 404, detail: 'no pet with id 7' }, 'templates expand');
  const rabbits = await get(server, '/v1/pets?species=rabbit');
  t.same(await rabbits.json(), [], 'custom route with a query condition');
  const bird = await send(server, 'POST', '/v1/pets', { name: 'Tweety', species: 'bird' });
  t.equal(bird.status, 201, 'custom route with a body condition');
  t.same(await bird.json(), { id: 42, name: 'Tweety', species: 'bird', status: 'available' });
  const health = await get(server, '/v1/health');
  t.equal(health.status, 200, 'custom route the description lacks');
  t.match((await health.json()).time, ISO_INSTANT);

  await everyOperationAnswers(t, dir, server);
  await configValidates(t, dir);
  await smokePasses(t, dir, server);
});
