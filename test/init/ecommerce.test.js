// `mock init --blueprint ecommerce`: a shop (catalogue, carts, orders) that serves at once.
import t from 'tap';
import { ISO_INSTANT, configValidates, smokePasses, everyOperationAnswers, get, initAndServe, send } from './project.js';

const address = { name: 'Ada Lovelace', line1: '12 Analytical Row', city: 'London', postal_code: 'NW1 6XE', country: 'GB' };
const order = { cart_id: '0b6c4a9e-3f51-4d2a-9c7e-2f0d6b8a1e44', payment_method: 'card', shipping_address: address };

t.test('the ecommerce blueprint serves at once and passes mock config validate', async (t) => {
  const { dir, server } = await initAndServe(t, 'shop', ['--blueprint', 'ecommerce']);

  const products = await get(server, '/api/products?category=kitchen&limit=10');
  t.equal(products.status, 200);
  t.match(await products.json(), { items: [{ sku: 'MUG-0001', price: { amount: '14.90', currency: 'EUR' } }, { sku: 'TEE-0042' }] });
  const shipped = await get(server, '/api/orders/ord_1b7e44a0c2', { prefer: 'example=shipped' });
  t.match(await shipped.json(), { status: 'shipped', tracking: { carrier: 'ups' } });
  const placed = await send(server, 'POST', '/api/orders', order);
  t.equal(placed.status, 201);
  t.match(await placed.json(), { order_id: 'ord_8f3a2c1d9e', status: 'pending' }, 'a new order is pending');
  const cart = await send(server, 'POST', '/api/carts', { currency: 'EUR' });
  t.equal(cart.status, 201);
  t.match((await cart.json()).cart_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'generated from the schema: a uuid');
  t.equal((await get(server, '/api/products/mug-1')).status, 400, 'the sku pattern is enforced');

  const expired = await send(server, 'POST', '/api/orders', { ...order, coupon_code: 'EXPIRED10' });
  t.equal(expired.status, 422, 'custom route with a body condition');
  t.same(await expired.json(), { title: 'Coupon expired', status: 422, detail: 'coupon EXPIRED10 expired' });
  const missing = await get(server, '/api/orders/ord_0000000000', { 'x-mock-scenario': 'not-found' });
  t.equal(missing.status, 404, 'custom route with a header condition');
  t.match(await missing.json(), { detail: 'no order ord_0000000000' });
  const soldOut = await get(server, '/api/products/TEE-0042?availability=none');
  t.match(await soldOut.json(), { sku: 'TEE-0042', stock: 0 }, 'custom route with a query condition');
  t.match((await (await get(server, '/api/status')).json()).time, ISO_INSTANT);

  await everyOperationAnswers(t, dir, server);
  await configValidates(t, dir);
  await smokePasses(t, dir, server);
});
