// runtime/chain/stages/sandbox.ts: while the admin is embedded, every answer of the mock is a
// sandboxed document (an opaque origin), whether the chain made it or not, sync answers staying sync.
import t from 'tap';
import { Exchange } from '../../../dist/runtime/chain/exchange/index.js';
import { RequestChain, createStages } from '../../../dist/runtime/chain/index.js';
import { LiveState } from '../../../dist/runtime/chain/settings/index.js';

const POLICY = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';
const route = { index: 0 };
/** The stages of a server whose admin is embedded, as it registers them; only the sandbox is kept. */
const sandboxStage = () => createStages({ live: new LiveState(), settings: { sandboxAnswers: true, maxBodyBytes: 1024 } }, 'description').filter((s) => s.name === 'sandbox');
const planted = { status: 200, headers: [['content-type', 'text/html']], body: '<script>fetch("/__mock/mocks")</script>' };

t.test('every answer carries the sandbox, with no allow-same-origin', async (t) => {
  const chain = new RequestChain(sandboxStage(), () => planted);
  chain.setRoutes([route]);
  t.same(chain.stagesOf(route), ['sandbox']);
  t.same(chain.stagesOf(null), ['sandbox'], 'requests no route matched too (runtime mocks answer there)');
  const ex = new Exchange({ method: 'GET', path: '/evil', headers: {} });
  ex.route = null;
  const answer = chain.enter(ex)(ex);
  t.notOk(answer instanceof Promise, 'a synchronous answer stays synchronous');
  t.same(answer.headers, [['content-type', 'text/html'], ['content-security-policy', POLICY]]);
  t.notMatch(POLICY, /allow-same-origin|allow-top-navigation|allow-popups-to-escape-sandbox/);
  t.same(planted.headers, [['content-type', 'text/html']], 'the answer it wrapped is left as it was');
  const failed = ex.chain.decorate(ex, { status: 500, headers: [], body: '' });
  t.same(failed.headers, [['content-security-policy', POLICY]], 'and an answer made outside the chain (500, 413)');
});

t.test('asynchronous answers too, and a mock own CSP cannot lift it', async (t) => {
  const chain = new RequestChain(sandboxStage(), async () => ({ ...planted, headers: [['content-security-policy', "default-src *"]] }));
  chain.setRoutes([route]);
  const ex = new Exchange({ method: 'GET', path: '/evil', headers: {} });
  ex.route = route;
  const answer = await chain.enter(ex)(ex);
  t.same(answer.headers, [['content-security-policy', 'default-src *'], ['content-security-policy', POLICY]], 'both policies apply: browsers enforce every one');
});
