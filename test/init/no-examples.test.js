// `mock init --no-examples`: no example fixture, no response examples; the project still serves.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configValidates, everyOperationAnswers, get, initAndServe } from './project.js';

t.test('--no-examples serves generated data and passes mock config validate', async (t) => {
  const { dir, server } = await initAndServe(t, 'plain-shop', ['--blueprint', 'ecommerce', '--no-examples']);
  t.same(readdirSync(path.join(dir, 'fixtures', 'http')), ['.gitkeep']);
  t.notMatch(readFileSync(path.join(dir, 'api.yaml'), 'utf8'), /^\s+examples?:/m);

  const named = await get(server, '/api/orders/ord_8f3a2c1d9e', { prefer: 'example=pending' });
  t.equal(named.status, 404, 'the named examples are gone');
  const products = await get(server, '/api/products');
  t.equal(products.status, 200);
  const { items } = await products.json();
  t.notOk(items.some((p) => p.sku === 'MUG-0001'), 'generated, not the documented example');
  for (const p of items) t.match(p.sku, /^[A-Z]{3}-[0-9]{4}$/);
  const missing = await get(server, '/api/orders/ord_0000000000', { 'x-mock-scenario': 'not-found' });
  t.equal(missing.status, 404, 'custom routes are configuration, not examples: they stay');

  await everyOperationAnswers(t, dir, server);
  await configValidates(t, dir);
});
