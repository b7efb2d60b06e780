// Generated code never runs text from a description or mock.yaml: a description saved through the
// admin API is compiled on the next restart, so paths ending a comment must stay comment text.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from '../../dist/compiler/index.js';
import { Engine, loadBuild } from '../../dist/runtime/terminal/openapi/index.js';
import { Exchange } from '../../dist/runtime/chain/exchange/index.js';
import { pino } from 'pino';

t.test('paths that close a comment are comment text, and still routes', async (t) => {
  const dir = t.testdir();
  const hostile = '/x*/globalThis.injectedByPath=1;/*';
  writeFileSync(
    path.join(dir, 'api.yaml'),
    `openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  ${JSON.stringify(hostile)}:
    get:
      responses: { '200': { description: ok, content: { application/json: { example: { ok: true } } } } }
`,
  );
  const routes = [{ path: '/y*/globalThis.injectedByRoute=1;/*', response: { status: 200, body: { route: true } } }];
  const built = await build({ specs: [{ source: 'api.yaml' }], routes, outDir: 'generated', cwd: dir });
  const module = await loadBuild(built.dir, true);
  t.equal(globalThis.injectedByPath, undefined, 'nothing from the description ran');
  t.equal(globalThis.injectedByRoute, undefined, 'nothing from mock.yaml ran');
  const engine = new Engine(module, {
    validation: { mode: 'enforce', aggregate_errors: false, validate_responses: false, status_code: 400, overrides: {} },
    templateExpand: false,
    logger: pino({ level: 'silent' }),
  });
  const answer = engine.handle(new Exchange({ method: 'GET', path: hostile, headers: {} }));
  t.equal(answer.status, 200, 'the operation is still served at its path');
  t.same(JSON.parse(answer.body), { ok: true });
});
