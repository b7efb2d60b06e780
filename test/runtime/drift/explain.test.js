// runtime/drift/explain: optional LLM explanations from a real local fake of an OpenAI-compatible
// endpoint; whatever the endpoint does, the result comes back by the timeout, without throwing.
import { createServer } from 'node:http';
import t from 'tap';
import { MAX_EXPLANATION_CHARS, explainGroups, resolveLlmProvider } from '../../../dist/runtime/drift/explain/index.js';

/** A fake /v1/chat/completions answering with `answer(body)`: {status, body} or 'hang'. */
async function fakeLlm(t, answer) {
  const requests = [];
  const hanging = new Set();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      requests.push({ url: req.url, headers: req.headers, body });
      const reply = answer(body);
      if (reply === 'hang') return hanging.add(res);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const res of hanging) res.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return { requests, provider: `http://127.0.0.1:${server.address().port}/v1` };
}

const chat = (content) => ({ body: { choices: [{ message: { role: 'assistant', content } }] } });
const group = (path = '/pets/{petId}') => ({
  method: 'get',
  path,
  operation: 'getPet',
  mismatches: [{ type: 'missing_field', field: 'name', location: 'response.body', message: 'required property name is missing', severity: 'high', count: 12 }],
});

t.test('happy path: one explanation a group, the prompt compact, the key as a bearer token', async (t) => {
  const llm = await fakeLlm(t, (body) => chat(`Explained ${body.messages[1].content.split('\n')[0]}.\nSecond line.`));
  const result = await explainGroups([group('/a'), group('/b')], { provider: llm.provider, model: 'tiny-model', env: { MOCK_LLM_API_KEY: 'llm-key-1' } });
  t.same(result, { explanations: ['Explained Operation: GET /a (getPet). Second line.', 'Explained Operation: GET /b (getPet). Second line.'] });
  t.equal(llm.requests.length, 2);
  const [first] = llm.requests;
  t.equal(first.url, '/v1/chat/completions');
  t.equal(first.headers.authorization, 'Bearer llm-key-1');
  t.equal(first.body.model, 'tiny-model');
  t.same(
    first.body.messages.map((m) => m.role),
    ['system', 'user'],
  );
  t.equal(first.body.messages[1].content, 'Operation: GET /a (getPet)\nMismatches:\n- missing_field [high] response.body name: required property name is missing (seen 12 times)');
});

t.test('bounded: at most maxGroups groups asked, answers cut and kept to one line of visible text', async (t) => {
  const llm = await fakeLlm(t, () => chat(`\u001b[31m${'x'.repeat(2000)}`));
  const result = await explainGroups([group('/1'), group('/2'), group('/3')], { provider: llm.provider, model: 'm', maxGroups: 2, env: {} });
  t.equal(llm.requests.length, 2);
  t.equal(llm.requests[0].headers.authorization, undefined, 'no key, no authorization');
  t.equal(result.explanations[2], undefined);
  t.equal(result.explanations[0].length, MAX_EXPLANATION_CHARS);
  t.ok(result.explanations[0].startsWith('\\x1b[31mxxx') && result.explanations[0].endsWith('…'));
  t.equal(result.warning, undefined, 'groups past the bound are not a failure');
});

t.test('a slow endpoint: the result comes back at the timeout without explanations, with one warning line', async (t) => {
  const llm = await fakeLlm(t, () => 'hang');
  const result = await explainGroups([group()], { provider: llm.provider, model: 'm', timeoutMs: 300, env: {} });
  t.same(result.explanations, [undefined]);
  t.equal(result.warning, `LLM explanations: 1 of 1 groups without one (${llm.provider}/chat/completions: no answer within 300 ms)`);
});

t.test('a 500 and malformed JSON are warnings, never errors', async (t) => {
  const failing = await fakeLlm(t, () => ({ status: 500, body: { error: 'boom' } }));
  const failed = await explainGroups([group()], { provider: failing.provider, model: 'm', env: { MOCK_LLM_API_KEY: 'llm-key-never-shown' } });
  t.equal(failing.requests[0].headers.authorization, 'Bearer llm-key-never-shown');
  t.same(failed, { explanations: [undefined], warning: `LLM explanations: 1 of 1 groups without one (${failing.provider}/chat/completions: answered 500)` });

  const garbled = await fakeLlm(t, () => ({ body: '{"choices": [' }));
  t.match((await explainGroups([group()], { provider: garbled.provider, model: 'm', env: {} })).warning, /: answered something other than JSON\)$/);
  const empty = await fakeLlm(t, () => ({ body: { choices: [] } }));
  t.match((await explainGroups([group()], { provider: empty.provider, model: 'm', env: {} })).warning, /: answered without choices\[0\]\.message\.content\)$/);
  const refused = await explainGroups([group()], { provider: 'http://127.0.0.1:1/v1', model: 'm', env: {} });
  t.match(refused, { explanations: [undefined], warning: /^LLM explanations: 1 of 1 groups without one \(http:\/\/127\.0\.0\.1:1\/v1\/chat\/completions: / });
});

t.test('no provider: no explanations and no warning; a provider without a model or of no known kind: a warning', async (t) => {
  t.same(await explainGroups([group()], {}), { explanations: [undefined] });
  t.same(await explainGroups([group()], { provider: '', model: 'm' }), { explanations: [undefined] });
  t.same(await explainGroups([group()], { provider: 'http://127.0.0.1:1/v1' }), {
    explanations: [undefined],
    warning: 'LLM explanations skipped: --llm-model names the model to ask (--llm-provider is set)',
  });
  t.match(await explainGroups([group()], { provider: 'my-llm', model: 'm' }), { warning: /^LLM explanations skipped: --llm-provider: expected openai, ollama or the base URL/ });
});

t.test('providers: known names, base URLs; OPENAI_API_KEY only goes to openai; a URL password is not shown', async (t) => {
  t.same(resolveLlmProvider('openai', { OPENAI_API_KEY: 'sk-1' }), { url: 'https://api.openai.com/v1/chat/completions', shown: 'https://api.openai.com/v1/chat/completions', apiKey: 'sk-1' });
  t.same(resolveLlmProvider('ollama', { OPENAI_API_KEY: 'sk-1' }), { url: 'http://localhost:11434/v1/chat/completions', shown: 'http://localhost:11434/v1/chat/completions' });
  t.same(resolveLlmProvider('http://llm.example.com/v1/', { OPENAI_API_KEY: 'sk-1', MOCK_LLM_API_KEY: 'k-2' }), {
    url: 'http://llm.example.com/v1/chat/completions',
    shown: 'http://llm.example.com/v1/chat/completions',
    apiKey: 'k-2',
  });
  t.equal(resolveLlmProvider('https://u:pw@llm.example.com/v1', {}).shown, 'https://u:[redacted]@llm.example.com/v1/chat/completions');
  t.match(resolveLlmProvider('ftp://x', {}), /^--llm-provider: expected/);
});
