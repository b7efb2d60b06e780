// `mock init --blueprint b2c-saas`: account and billing API of a consumer SaaS that serves at once.
import t from 'tap';
import { ISO_INSTANT, configValidates, smokePasses, everyOperationAnswers, get, initAndServe, send } from './project.js';

t.test('the b2c-saas blueprint serves at once and passes mock config validate', async (t) => {
  const { dir, server } = await initAndServe(t, 'saas', ['--blueprint', 'b2c-saas']);

  const plans = await get(server, '/v1/plans');
  t.equal(plans.status, 200);
  t.same((await plans.json()).map((p) => `${p.plan_id} ${p.currency}`), ['free USD', 'plus USD', 'family USD']);
  const me = await get(server, '/v1/me');
  t.match(await me.json(), { user_id: 'usr_4Fq9ZtB2xK', email: 'maya.lindqvist@example.com' });
  const created = await send(server, 'POST', '/v1/subscriptions', { plan_id: 'plus', billing_cycle: 'monthly', payment_method_id: 'pm_card_visa' });
  t.equal(created.status, 201);
  t.match(await created.json(), { subscription_id: 'sub_7Hc2LmQp9R', status: 'trialing' }, 'a new subscription starts its trial');
  const invoices = await get(server, '/v1/invoices?status=paid');
  t.equal(invoices.status, 200);
  for (const invoice of (await invoices.json()).items) t.match(invoice.invoice_id, /^in_[A-Za-z0-9]{12}$/, 'generated from the schema: ids follow their pattern');
  const bad = await send(server, 'POST', '/v1/subscriptions', { plan_id: 'gold', billing_cycle: 'weekly' });
  t.equal(bad.status, 400, 'enums are enforced');

  const euro = await get(server, '/v1/plans?currency=EUR');
  t.same((await euro.json()).map((p) => p.currency), ['EUR', 'EUR', 'EUR'], 'custom route with a query condition');
  const expired = await get(server, '/v1/me', { authorization: 'Bearer expired-2024' });
  t.equal(expired.status, 401, 'custom route with a header pattern');
  t.equal(expired.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
  const declined = await send(server, 'POST', '/v1/subscriptions', { plan_id: 'plus', billing_cycle: 'monthly', payment_method_id: 'pm_card_declined' });
  t.equal(declined.status, 402, 'custom route with a body condition');
  t.match(await declined.json(), { title: 'Payment Required', detail: 'the card was declined' });
  t.match((await (await get(server, '/v1/status')).json()).time, ISO_INSTANT);

  await everyOperationAnswers(t, dir, server);
  await configValidates(t, dir);
  await smokePasses(t, dir, server);
});
