// core.routes lowered at build time into the per-route table the request chain's stages read.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lowerRouteBehaviour } from '../../dist/compiler/ir/route-behaviour.js';
import { loadBuild } from '../../dist/runtime/terminal/openapi/index.js';
import { Engine } from '../../dist/runtime/terminal/openapi/index.js';
import { root, runMock, tmpdir } from '../helpers/cli.js';

const op = (index, method, p) => ({ index, method, path: p });
const operations = [op(0, 'GET', '/v1/pets'), op(1, 'POST', '/v1/pets'), op(2, 'GET', '/v1/pets/{petId}'), op(3, 'DELETE', '/v1/pets/{petId}')];
const customRoutes = [{ index: 0, method: '*', path: '/v1/status' }];
const latency = { enabled: true, distribution: 'fixed', mean_ms: 20 };
const faults = { enabled: true, probability: 0.5, fault_types: [{ type: 'http_error', status_code: 503 }] };

t.test('an entry reaches the routes of its path, one method or all; parameter names need not agree', async (t) => {
  t.same(lowerRouteBehaviour([{ path: '/v1/pets/{id}', method: 'get', latency }], operations, customRoutes), [{ route: 2, sources: ['core.routes[0]'], latency }]);
  t.same(
    lowerRouteBehaviour([{ path: '/v1/pets/{petId}/', fault_injection: faults }], operations, customRoutes).map((b) => b.route),
    [2, 3],
    'no method: every method of the path; a trailing slash is ignored',
  );
  t.same(lowerRouteBehaviour([{ path: '/v1/status', method: 'POST', latency }], operations, customRoutes), [{ route: 4, sources: ['core.routes[0]'], latency }], 'custom routes follow the operations');
  t.same(lowerRouteBehaviour([], operations, customRoutes), []);
});

t.test('entries reaching one route merge, later ones winning field by field', async (t) => {
  const slower = { ...latency, mean_ms: 80 };
  const [merged] = lowerRouteBehaviour(
    [
      { path: '/v1/pets', method: 'GET', latency, fault_injection: faults },
      { path: '/v1/pets', method: 'GET', latency: slower },
    ],
    operations,
    customRoutes,
  );
  t.same(merged, { route: 0, sources: ['core.routes[0]', 'core.routes[1]'], latency: slower, fault_injection: faults });
});

t.test('an entry that reaches no route fails with one line naming it and what the path has', async (t) => {
  t.throws(() => lowerRouteBehaviour([{ path: '/v1/pets/{id}', method: 'PUT', latency }], operations, customRoutes), {
    code: 'MOCK_ERR_CONFIG_INVALID',
    message: 'mock.yaml: core.routes[0] (PUT /v1/pets/{id}) matches no route: the path has GET /v1/pets/{petId}, DELETE /v1/pets/{petId}',
  });
  t.throws(() => lowerRouteBehaviour([{ path: '/pets', latency }], operations, customRoutes), { message: /core\.routes\[0\] \(any method \/pets\) matches no route: routes are named by their path as the description writes it, mount prefix included \(e\.g\. GET \/v1\/pets\)/ });
});

t.test('mock build writes the table; the engine hands it to the routes; a bad entry fails the build', async (t) => {
  const dir = tmpdir();
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    `specs: [${path.join(root, 'examples/petstore.yaml')}]\nbuild: { out_dir: out }\ncore:\n  routes:\n    - { path: "/v1/pets/{petId}", method: GET, latency: { enabled: true, distribution: normal, mean_ms: 40, std_dev_ms: 5 } }\n`,
  );
  const built = await runMock(['build'], { cwd: dir });
  t.equal(built.code, 0, built.stderr);
  const routesTs = readFileSync(path.join(dir, 'out/petstore/routes.ts'), 'utf8');
  t.match(routesTs, /export const behaviours: RouteBehaviourMeta\[\] = \[\n {2}\/\* GET \/v1\/pets\/\{petId\} \*\/ \{"route":2,"sources":\["core.routes\[0\]"\],"latency":/);

  const build = await loadBuild(path.join(dir, 'out/petstore'));
  const engine = new Engine(build, { validation: { mode: 'enforce', status_code: 400, aggregate_errors: false, validate_responses: false, overrides: {} }, templateExpand: false, logger: { warn() {} } });
  const byKey = Object.fromEntries(engine.routes.map((r) => [r.key, r.behaviour]));
  t.same(byKey['GET /v1/pets/{petId}'], { route: 2, sources: ['core.routes[0]'], latency: { enabled: true, distribution: 'normal', mean_ms: 40, std_dev_ms: 5 } });
  t.equal(byKey['GET /v1/pets'], null, 'routes mock.yaml does not configure have none');

  writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${path.join(root, 'examples/petstore.yaml')}]\nbuild: { out_dir: out }\ncore:\n  routes:\n    - { path: "/pets/{petId}", latency: { enabled: true } }\n`);
  const failed = await runMock(['build'], { cwd: dir });
  t.equal(failed.code, 1);
  t.match(failed.stderr.trim(), /^mock\.yaml: core\.routes\[0\] \(any method \/pets\/\{petId\}\) matches no route: .*GET \/v1\/pets/);
  t.equal(failed.stderr.trim().split('\n').length, 1, 'one line');
});
