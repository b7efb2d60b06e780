// Where the analysis reaches out: contract_diff.webhooks receive signed events for what drifts (from
// the proxy's live check, the admin API's analyses and `mock contract-diff analyze`), the admin API
// answers a capture's correction patch, and --llm-provider adds explanations from a local
// OpenAI-compatible endpoint. Real processes, a real local receiver and upstream.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { envelope, post } from '../helpers/admin.js';
import { corpus, runCli, startMock, tmpdir } from '../helpers/cli.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');

/** A local HTTP server that keeps what it is sent and answers with `answer`. */
async function receiver(answer) {
  const received = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ url: req.url, headers: req.headers, body });
      answer(req, body, res);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { received, url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

const until = async (what, check) => {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** The event a Standard Webhooks receiver accepts: its signature recomputed here. */
function verified(t, { headers, body }) {
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64');
  t.equal(headers['webhook-signature'], `v1,${expected}`, 'signed with the webhook secret');
  return JSON.parse(body);
}

const hooks = await receiver((req, body, res) => res.writeHead(204).end());
t.teardown(hooks.close);
const upstream = await receiver((req, body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'not-a-number', name: 'rex' })));
t.teardown(upstream.close);

const dir = tmpdir();
copyFileSync(path.join(corpus, 'openapi', 'oai-v3.0-petstore.yaml'), path.join(dir, 'api.yaml'));
const webhooksYaml = `contract_diff:
  webhooks: [{ url: ${hooks.url}/drift, events: [mismatch, high_severity], secret: ${SECRET} }]
  webhook_allow_private: true
`;
writeFileSync(path.join(dir, 'mock.yaml'), `specs: [api.yaml]\nproxy: { enabled: true, upstream_url: ${upstream.url} }\n${webhooksYaml}  capture: { enabled: true }\n`);
const server = await startMock(['-c', 'mock.yaml', '--out', path.join(dir, 'out'), '--admin', '--admin-port', '0'], { cwd: dir, env: { MOCK_LOG_LEVEL: 'info' } });
t.teardown(() => server.stop());
const api = `${server.adminUrl}/__mock`;

t.test('a proxied answer that drifts: a signed high_severity event', async (t) => {
  const res = await fetch(`${server.url}/v1/pets/1`);
  t.equal(res.status, 200);
  await res.arrayBuffer();
  await until('an event of the proxied answer', () => hooks.received.length >= 1);
  const event = verified(t, hooks.received.shift());
  t.match(event, {
    type: 'high_severity',
    id: /^msg_/,
    data: { method: 'GET', path: '/v1/pets/1', operation: 'GET /v1/pets/{petId}', count: 1, mismatch: { type: 'type_mismatch', location: 'response.body', field: '/id', severity: 'high' } },
  });
  await until('the delivery logged', () => /contract-diff webhook high_severity msg_\S+ to http:\/\/127\.0\.0\.1:\d+\/drift: delivered \(204/.test(server.stdout));
  t.notMatch(server.stdout + server.stderr, /MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/, 'the secret is never logged');
});

t.test('an uploaded capture analysed by the admin API: an event; its correction patch, applied, leaves nothing to analyse', async (t) => {
  const capture = { method: 'POST', path: '/v1/pets', headers: { 'content-type': 'application/json' }, body: { id: 7, name: 'rex', tag: 5 } };
  const stored = await envelope(t, await post(`${api}/contract-diff/upload`, capture), 201);
  t.equal(hooks.received.length, 0, 'an upload alone is not analysed');
  const analysis = await envelope(t, await post(`${api}/contract-diff/captures/${stored.id}/analyze`, {}));
  t.match(analysis.mismatches, [{ type: 'type_mismatch', field: '/tag' }]);
  await until('an event of the analysis', () => hooks.received.length >= 1);
  t.match(verified(t, hooks.received.shift()), { type: 'high_severity', data: { capture_ids: [stored.id], mismatch: { field: '/tag' } } });

  const patched = await envelope(t, await post(`${api}/contract-diff/captures/${stored.id}/patch`, { spec_path: 'api.yaml' }));
  t.same(patched.patch, [{ op: 'replace', path: '/components/schemas/Pet/properties/tag', value: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }], 'aimed at the shared Pet');
  writeFileSync(path.join(dir, 'fix.json'), JSON.stringify(patched.patch));
  writeFileSync(path.join(dir, 'capture.json'), JSON.stringify(capture));
  t.equal((await runCli(['contract-diff', 'apply-patch', '--spec', 'api.yaml', '--patch', 'fix.json', '--output', 'fixed.yaml'], { cwd: dir })).code, 0);
  const again = await runCli(['contract-diff', 'analyze', '--spec', 'fixed.yaml', '--request-path', 'capture.json', '--fail-on', 'low'], { cwd: dir });
  t.equal(again.code, 0, again.stdout);
  const other = await fetch(`${api}/contract-diff/captures/${stored.id}/patch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ spec_path: '../etc/passwd' }),
  });
  t.equal(other.status, 400, 'only the served description');
});

t.test('mock contract-diff analyze tells the webhooks of mock.yaml and waits for the delivery', async (t) => {
  const cli = tmpdir();
  copyFileSync(path.join(corpus, 'openapi', 'oai-v3.0-petstore.yaml'), path.join(cli, 'api.yaml'));
  writeFileSync(path.join(cli, 'mock.yaml'), `specs: [api.yaml]\n${webhooksYaml}`);
  writeFileSync(path.join(cli, 'captures.json'), JSON.stringify([{ method: 'DELETE', path: '/v1/pets', headers: {}, query_params: {} }]));
  const result = await runCli(['contract-diff', 'analyze', '--request-path', 'captures.json'], { cwd: cli });
  t.equal(result.code, 0, result.stderr);
  t.match(result.stderr, /contract-diff webhook high_severity msg_\S+ to http:\/\/127\.0\.0\.1:\d+\/drift: delivered \(204, attempt 1 of 5\)/);
  t.notMatch(result.stderr, /MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/);
  t.equal(hooks.received.length, 1, 'delivered before the command ended');
  t.match(verified(t, hooks.received.shift()), { type: 'high_severity', data: { method: 'DELETE', mismatch: { type: 'invalid_method' } } });
});

t.test('--llm-provider: explanations from an OpenAI-compatible endpoint; a bad provider is one line', async (t) => {
  const llm = await receiver((req, body, res) => {
    const asked = JSON.parse(body);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ choices: [{ message: { content: `Clients send ${asked.model === 'tiny' ? 'a method' : '?'} the description lacks.` } }] }));
  });
  t.teardown(llm.close);
  const cli = tmpdir();
  copyFileSync(path.join(corpus, 'openapi', 'oai-v3.0-petstore.yaml'), path.join(cli, 'api.yaml'));
  writeFileSync(path.join(cli, 'captures.json'), JSON.stringify([{ method: 'DELETE', path: '/v1/pets', headers: {}, query_params: {} }]));
  const explained = await runCli(['contract-diff', 'analyze', '--spec', 'api.yaml', '--request-path', 'captures.json', '--format', 'json', '--llm-provider', `${llm.url}/v1`, '--llm-model', 'tiny'], {
    cwd: cli,
    env: { MOCK_LLM_API_KEY: 'sk-test-key' },
  });
  t.equal(explained.code, 0, explained.stderr);
  t.equal(JSON.parse(explained.stdout).groups[0].explanation, 'Clients send a method the description lacks.');
  t.equal(llm.received[0].url, '/v1/chat/completions');
  t.equal(llm.received[0].headers.authorization, 'Bearer sk-test-key');
  const text = await runCli(['contract-diff', 'analyze', '--spec', 'api.yaml', '--request-path', 'captures.json', '--llm-provider', `${llm.url}/v1`, '--llm-model', 'tiny'], { cwd: cli });
  t.match(text.stdout, /invalid_method[\s\S]*Clients send a method the description lacks\./, 'under its group in text');

  const bad = await runCli(['contract-diff', 'analyze', '--spec', 'api.yaml', '--request-path', 'captures.json', '--llm-provider', 'gopher://x'], { cwd: cli });
  t.equal(bad.code, 2);
  t.match(bad.stderr, /^--llm-provider: expected openai, ollama or the base URL of an OpenAI-compatible API/);
  t.equal(bad.stderr.split('\n').length, 2, 'one line');
});
