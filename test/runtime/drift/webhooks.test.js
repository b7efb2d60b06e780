// runtime/drift/webhooks: contract-diff webhooks delivered to a real local receiver, which checks
// the Standard Webhooks signature by recomputing it with node:crypto.
import { createHmac, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import { hostname } from 'node:os';
import t from 'tap';
import { DriftWebhooks, isPrivateAddress } from '../../../dist/runtime/drift/webhooks/index.js';
import { until } from '../../helpers/wait.js';

/** A receiver answering each request with the next of `answers` (then 200), keeping what it got. */
async function receiver(t, answers = []) {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? { status: 200 };
      if (answer === 'hang') return res.on('close', () => (received.at(-1).cut = true));
      res.writeHead(answer.status, answer.headers ?? {});
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return { received, url: `http://127.0.0.1:${server.address().port}/hooks/mock` };
}

function logs() {
  const lines = [];
  return { lines, log: { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) } };
}

function webhooks(t, options) {
  const sender = new DriftWebhooks({ allowPrivate: true, baseDelayMs: 10, ...options });
  t.teardown(() => sender.close());
  return sender;
}

const mismatch = (over = {}) => ({ type: 'missing_field', field: 'name', location: 'response.body', message: 'required property name is missing', severity: 'medium', ...over });
const observation = (mismatches, capture_id = 'cap-1') => ({ capture_id, method: 'get', path: '/pets/{petId}', operation: 'getPet', mismatches });

/** The Standard Webhooks signature, recomputed here independently of the sender. */
const expectedSignature = (key, headers, body) => `v1,${createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64')}`;

t.test('an event is POSTed as JSON, signed per Standard Webhooks with a whsec_ secret (base64-decoded) or a plain one (its bytes)', async (t) => {
  const key = randomBytes(24);
  const target = await receiver(t);
  const { lines, log } = logs();
  const secret = `whsec_${key.toString('base64')}`;
  const sender = webhooks(t, {
    log,
    webhooks: [
      { url: target.url, events: ['mismatch'], secret },
      { url: target.url, events: ['mismatch'], secret: 'plain text secret' },
    ],
  });
  sender.notify(observation([mismatch()]));
  await sender.flush();
  t.equal(target.received.length, 2);
  const [first, second] = target.received;
  t.equal(first.headers['content-type'], 'application/json');
  t.equal(first.headers['webhook-signature'], expectedSignature(key, first.headers, first.body));
  t.equal(second.headers['webhook-signature'], expectedSignature(Buffer.from('plain text secret'), second.headers, second.body));
  t.match(first.headers['webhook-timestamp'], /^\d{10}$/, 'whole seconds');
  const event = JSON.parse(first.body);
  t.equal(event.id, first.headers['webhook-id']);
  t.match(event, {
    type: 'mismatch',
    id: /^msg_[0-9a-f]{32}$/,
    timestamp: String,
    data: { method: 'GET', path: '/pets/{petId}', operation: 'getPet', mismatch: mismatch(), count: 1, capture_ids: ['cap-1'] },
  });
  t.match(lines, [/^info contract-diff webhook mismatch msg_\w+ to http:\/\/127\.0\.0\.1:\d+\/hooks\/mock: delivered \(200, attempt 1 of 5\)$/, /delivered/]);
  t.same(sender.stats(), { pending: 0, delivered: 2, failed: 0, dropped: 0 });
});

t.test('a webhook without a secret gets unsigned events', async (t) => {
  const target = await receiver(t);
  const sender = webhooks(t, { log: logs().log, webhooks: [{ url: target.url, events: ['mismatch'] }] });
  sender.notify(observation([mismatch()]));
  await sender.flush();
  t.equal(target.received[0].headers['webhook-signature'], undefined);
  t.ok(target.received[0].headers['webhook-id']);
});

t.test('network errors, 5xx and 429 are retried with the same id, each attempt signed anew', async (t) => {
  const key = randomBytes(32);
  const target = await receiver(t, [{ status: 500 }, { status: 503 }]);
  const { lines, log } = logs();
  const sender = webhooks(t, { log, webhooks: [{ url: target.url, events: ['mismatch'], secret: `whsec_${key.toString('base64')}` }] });
  sender.notify(observation([mismatch()]));
  await sender.flush();
  t.equal(target.received.length, 3, '500, 503, then 200');
  t.equal(new Set(target.received.map((r) => r.headers['webhook-id'])).size, 1);
  for (const r of target.received) t.equal(r.headers['webhook-signature'], expectedSignature(key, r.headers, r.body));
  t.match(lines.at(-1), /delivered \(200, attempt 3 of 5\)$/);

  const { lines: refusedLines, log: refusedLog } = logs();
  const closed = webhooks(t, { log: refusedLog, maxAttempts: 2, webhooks: [{ url: 'http://127.0.0.1:1/nothing-listens', events: ['mismatch'] }] });
  closed.notify(observation([mismatch()]));
  await closed.flush();
  t.match(refusedLines, [/^warn contract-diff webhook mismatch msg_\w+ to http:\/\/127\.0\.0\.1:1\/nothing-listens: not delivered, .*ECONNREFUSED.* \(2 attempts\)$/]);
  t.same(closed.stats(), { pending: 0, delivered: 0, failed: 1, dropped: 0 });
});

t.test('a 429 with Retry-After is retried after the time it asks, not the back-off', async (t) => {
  const target = await receiver(t, [{ status: 429, headers: { 'retry-after': '1' } }]);
  const { lines, log } = logs();
  // the back-off would wait at least 30 s: the retry arrives in time only by Retry-After
  const sender = webhooks(t, { log, baseDelayMs: 60_000, webhooks: [{ url: target.url, events: ['mismatch'] }] });
  sender.notify(observation([mismatch()]));
  await sender.flush();
  t.equal(target.received.length, 2);
  t.match(lines, [/delivered \(200, attempt 2 of 5\)$/]);
});

t.test('attempts are bounded; a 4xx other than 429 is not retried', async (t) => {
  const target = await receiver(t, [{ status: 502 }, { status: 502 }, { status: 502 }, { status: 404 }]);
  const { lines, log } = logs();
  const sender = webhooks(t, { log, maxAttempts: 3, webhooks: [{ url: target.url, events: ['mismatch'] }] });
  sender.notify(observation([mismatch()]));
  await sender.flush();
  t.equal(target.received.length, 3);
  t.match(lines, [/: not delivered, answered 502 \(3 attempts\)$/]);
  sender.notify(observation([mismatch({ field: 'tag' })]));
  await sender.flush();
  t.equal(target.received.length, 4, 'the 404 once');
  t.match(lines[1], /: not delivered, answered 404 \(1 attempt\)$/);
  t.same(sender.stats(), { pending: 0, delivered: 0, failed: 2, dropped: 0 });
});

t.test('debounce: a burst of identical mismatches is one event with its count; distinct ones are distinct events', async (t) => {
  const target = await receiver(t);
  const sender = webhooks(t, { log: logs().log, debounceMs: 60_000, webhooks: [{ url: target.url, events: ['mismatch'] }] });
  for (let i = 0; i < 20; i++) sender.notify(observation([mismatch()], `cap-${i}`));
  sender.notify(observation([mismatch({ field: 'tag' }), mismatch({ type: 'type_mismatch', field: 'id', message: 'expected integer' })], 'cap-x'));
  t.equal(target.received.length, 0, 'nothing before the window ends');
  await sender.flush();
  const events = target.received.map((r) => JSON.parse(r.body).data);
  t.equal(events.length, 3);
  t.equal(events[0].count, 20);
  t.equal(events[0].capture_ids.length, 10, 'the first ten capture ids');
  t.same(
    events.slice(1).map((e) => [e.mismatch.type, e.mismatch.field, e.count]),
    [
      ['missing_field', 'tag', 1],
      ['type_mismatch', 'id', 1],
    ],
  );
  t.equal(new Set(target.received.map((r) => r.headers['webhook-id'])).size, 3);
});

t.test('a debounce window ends by itself', async (t) => {
  const target = await receiver(t);
  const sender = webhooks(t, { log: logs().log, debounceMs: 50, webhooks: [{ url: target.url, events: ['mismatch'] }] });
  sender.notify(observation([mismatch()]));
  sender.notify(observation([mismatch()]));
  await until(() => target.received.length === 1, 10_000, 'the event');
  t.equal(JSON.parse(target.received[0].body).data.count, 2);
});

t.test('high_severity for high mismatches to webhooks that subscribe to it; mismatch for any', async (t) => {
  const high = await receiver(t);
  const any = await receiver(t);
  const both = await receiver(t);
  const sender = webhooks(t, {
    log: logs().log,
    webhooks: [
      { url: high.url, events: ['high_severity'] },
      { url: any.url, events: ['mismatch'] },
      { url: both.url, events: ['mismatch', 'high_severity'] },
    ],
  });
  sender.notify(observation([mismatch({ severity: 'high', type: 'missing_endpoint', field: '' }), mismatch({ severity: 'low' })]));
  await sender.flush();
  const types = (r) => r.received.map((x) => `${JSON.parse(x.body).type}:${JSON.parse(x.body).data.mismatch.severity}`).sort();
  t.same(types(high), ['high_severity:high']);
  t.same(types(any), ['mismatch:high', 'mismatch:low']);
  t.same(types(both), ['high_severity:high', 'mismatch:low'], 'one event a mismatch, the most specific type');
});

t.test('bounded: past maxPending new mismatches are dropped and counted, notify never waits', async (t) => {
  const target = await receiver(t);
  const { lines, log } = logs();
  const sender = webhooks(t, { log, maxPending: 3, debounceMs: 60_000, webhooks: [{ url: target.url, events: ['mismatch'] }] });
  for (let i = 0; i < 5; i++) sender.notify(observation([mismatch({ field: `f${i}` })]));
  sender.notify(observation([mismatch({ field: 'f0' })])); // a burst already open still counts
  t.same(sender.stats(), { pending: 3, delivered: 0, failed: 0, dropped: 2 });
  t.match(lines, [/^warn contract-diff webhooks: 3 events pending, new ones dropped \(1 so far\)$/]);
  await sender.flush();
  t.equal(target.received.length, 3);
  t.equal(JSON.parse(target.received[0].body).data.count, 2);
});

t.test('targets: loopback, link-local and private addresses are refused unless webhook_allow_private', async (t) => {
  for (const url of [
    'http://127.0.0.1:9/x',
    'http://localhost/x',
    'http://localhost./x',
    'http://[::1]/x',
    'http://169.254.169.254/latest',
    'http://10.1.2.3/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://2130706433/x',
  ]) {
    t.throws(
      () => new DriftWebhooks({ log: logs().log, webhooks: [{ url, events: ['mismatch'] }] }),
      {
        code: 'MOCK_ERR_CONFIG_INVALID',
        message: /^contract_diff\.webhooks\[0\]\.url: .* is a loopback, link-local or private address; set contract_diff\.webhook_allow_private: true to send there$/,
      },
      url,
    );
  }
  t.throws(() => new DriftWebhooks({ log: logs().log, webhooks: [{ url: 'ftp://example.com/x', events: ['mismatch'] }] }), {
    message: /^contract_diff\.webhooks\[0\]\.url: expected an http\(s\) URL/,
  });
  t.throws(() => new DriftWebhooks({ log: logs().log, webhooks: [{ url: 'https://example.com/x', events: ['mismatch'], secret: 'whsec_not base64!' }] }), {
    message: /^contract_diff\.webhooks\[0\]\.secret: expected whsec_ followed by base64/,
  });
  t.ok(new DriftWebhooks({ log: logs().log, allowPrivate: true, webhooks: [{ url: 'http://127.0.0.1:9/x', events: ['mismatch'] }] }), 'allowed by the setting');
  t.notOk(isPrivateAddress('93.184.215.14'));
  t.ok(isPrivateAddress('fd00::1') && isPrivateAddress('fe80::1') && isPrivateAddress('172.20.0.1') && isPrivateAddress('100.64.0.1'));
});

t.test('a name that resolves to a private address is refused when the connection is made, and not retried', async (t) => {
  const name = hostname();
  const { address } = await lookup(name).catch(() => ({ address: '' }));
  if (!isPrivateAddress(address)) return t.skip(`${name} does not resolve to a private address here`);
  const target = await receiver(t);
  const port = new URL(target.url).port;
  const { lines, log } = logs();
  const sender = new DriftWebhooks({ log, baseDelayMs: 10, webhooks: [{ url: `http://${name}:${port}/hooks`, events: ['mismatch'] }] });
  t.teardown(() => sender.close());
  sender.notify(observation([mismatch()]));
  await sender.flush();
  t.equal(target.received.length, 0);
  t.match(lines, [/not delivered, .* resolves to .*, a loopback, link-local or private address; set contract_diff\.webhook_allow_private: true to send there \(1 attempt\)$/]);
});

t.test('secrets and URL credentials never reach the log', async (t) => {
  const target = await receiver(t, [{ status: 500 }, { status: 404 }]);
  const secret = 'do-not-log-this-secret';
  const { lines, log } = logs();
  const url = new URL(target.url);
  url.username = 'hook-user';
  url.password = 'url-password';
  url.search = '?token=query-token';
  const sender = webhooks(t, { log, webhooks: [{ url: url.href, events: ['mismatch', 'high_severity'], secret }] });
  sender.notify(observation([mismatch({ severity: 'high' })]));
  await sender.flush();
  t.equal(target.received.length, 2);
  t.equal(target.received[0].headers.authorization, 'Basic ' + Buffer.from('hook-user:url-password').toString('base64'), 'the URL credentials are sent');
  t.ok(lines.length > 0);
  for (const line of lines) t.notMatch(line, /do-not-log-this-secret|url-password|query-token|hook-user/);
});

t.test('close() cuts off an attempt under way and ends a flush waiting for it', async (t) => {
  const target = await receiver(t, ['hang']);
  const { lines, log } = logs();
  const sender = webhooks(t, { log, webhooks: [{ url: target.url, events: ['mismatch'] }] });
  sender.notify(observation([mismatch()]));
  const flushed = sender.flush();
  await until(() => target.received.length === 1, 10_000, 'the attempt');
  sender.close();
  await flushed;
  await until(() => target.received[0].cut, 5000, 'the connection cut (an attempt waits 10 s by itself)');
  t.equal(target.received.length, 1, 'not retried');
  t.same(lines, [], 'an event given up by close() is not a failure to report');
  sender.notify(observation([mismatch({ field: 'other' })]));
  t.same(sender.stats(), { pending: 0, delivered: 0, failed: 0, dropped: 0 }, 'nothing is taken after close()');
});
