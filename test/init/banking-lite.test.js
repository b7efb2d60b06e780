// `mock init --blueprint banking-lite`: accounts and OTP-confirmed transfers that serve at once.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { ISO_INSTANT, configValidates, smokePasses, everyOperationAnswers, get, initAndServe, send } from './project.js';

const transfer = { from_account_id: 'acc_01HZX3K9QF', to_iban: 'FR1420041010050500013M02606', to_name: 'Camille Durand', amount: { value: '150.00', currency: 'EUR' } };

t.test('the banking-lite blueprint serves at once and passes mock config validate', async (t) => {
  const { dir, server } = await initAndServe(t, 'bank', ['--blueprint', 'banking-lite']);

  const accounts = await get(server, '/v1/accounts');
  t.equal(accounts.status, 200);
  t.match(await accounts.json(), [{ iban: 'DE89370400440532013000', balance: { value: '2450.17' } }, { type: 'savings' }]);
  const created = await send(server, 'POST', '/v1/transfers', transfer, { 'idempotency-key': randomUUID() });
  t.equal(created.status, 201);
  t.match(await created.json(), { transfer_id: 'trf_5QmR8xT2Lc', status: 'pending_confirmation' }, 'a new transfer waits for confirmation');
  const history = await get(server, '/v1/accounts/acc_01HZX3K9QF/transactions?from=2025-01-01&limit=5');
  t.equal(history.status, 200);
  for (const tx of (await history.json()).items) t.match(tx.amount.value, /^-?[0-9]{1,12}\.[0-9]{2}$/, 'generated from the schema: amounts are decimal strings');
  t.equal((await send(server, 'POST', '/v1/transfers', transfer)).status, 400, 'the Idempotency-Key header is required');

  const poor = await send(server, 'POST', '/v1/transfers', transfer, { 'idempotency-key': randomUUID(), 'x-mock-scenario': 'insufficient-funds' });
  t.equal(poor.status, 422, 'custom route with a header condition');
  t.match(await poor.json(), { title: 'Insufficient funds' });
  const wrongOtp = await send(server, 'POST', '/v1/transfers/trf_5QmR8xT2Lc/confirm', { otp: '000000' });
  t.equal(wrongOtp.status, 403, 'custom route with a body condition');
  t.match(await wrongOtp.json(), { detail: 'wrong one-time password for transfer trf_5QmR8xT2Lc' });
  const frozen = await get(server, '/v1/accounts/acc_01HZX3K9QF', { 'x-mock-scenario': 'frozen' });
  t.match(await frozen.json(), { account_id: 'acc_01HZX3K9QF', status: 'frozen' });
  t.equal((await send(server, 'POST', '/v1/transfers/trf_5QmR8xT2Lc/confirm', { otp: '12ab' })).status, 400, 'the OTP pattern is enforced');
  t.match((await (await get(server, '/v1/status')).json()).time, ISO_INSTANT);

  await everyOperationAnswers(t, dir, server);
  await configValidates(t, dir);
  await smokePasses(t, dir, server);
});
