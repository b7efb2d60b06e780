// Shared steps of the `mock init` tests: scaffold with the real CLI, serve the result, check it.
import path from 'node:path';
import { runMock, startMock } from '../helpers/cli.js';
import { loadOperations } from '../helpers/requests.js';
import { bodyFormat } from '../../dist/compiler/emit/media.js';

/** `mock init <args>` in `cwd`; fails the test unless it exits 0. */
export async function init(t, args, cwd) {
  const result = await runMock(['init', ...args], { cwd });
  t.equal(result.code, 0, `mock init ${args.join(' ')} exits 0`, { stderr: result.stderr });
  return result;
}

/** Scaffolds `name` in a fresh test directory and serves it from there (config lookup finds its mock.yaml). */
export async function initAndServe(t, name, args = []) {
  const parent = t.testdir();
  const created = await init(t, [name, ...args], parent);
  const dir = path.join(parent, name);
  const server = await startMock([], { cwd: dir });
  t.teardown(() => server.stop());
  return { dir, server, stdout: created.stdout };
}

export const get = (server, url, headers = {}) => fetch(server.url + url, { headers: { authorization: 'Bearer demo', ...headers } });

export const send = (server, method, url, body, headers = {}) =>
  fetch(server.url + url, {
    method,
    headers: { authorization: 'Bearer demo', 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/**
 * Every operation of the project's description answers a valid request with a 2xx whose body
 * validates against the documented schema (the same check the corpus test runs) — or, where the
 * blueprint's state machine does not let a fresh resource take that step (shipping an order
 * nobody processed), with the 409 the operation documents.
 */
export async function everyOperationAnswers(t, dir, server) {
  const { ir, schemas, factory } = await loadOperations(path.join(dir, 'api.yaml'));
  const failures = [];
  let validated = 0;
  let conflicts = 0;
  for (const op of ir.operations) {
    const req = factory.valid(op);
    const res = await fetch(server.url + req.path, { method: req.method, headers: { authorization: 'Bearer demo', ...req.headers }, body: req.body });
    const text = await res.text();
    if (res.status === 409 && res.headers.get('x-mock-error-code') === 'MOCK_ERR_STATE_CONFLICT' && op.responses.some((r) => r.status === '409')) {
      conflicts++;
      continue;
    }
    if (res.status < 200 || res.status > 299) {
      failures.push(`${op.key}: valid request got ${res.status} ${text.slice(0, 300)}`);
      continue;
    }
    const ri = op.responses.findIndex((r) => String(res.status) === r.status);
    const type = (res.headers.get('content-type') ?? '').split(';')[0];
    const ci = ri === -1 ? -1 : op.responses[ri].contents.findIndex((c) => c.mediaType === type);
    const id = ci === -1 ? undefined : schemas.ids[op.index].responses[ri][ci];
    if (id && bodyFormat(type) === 'json' && text !== '') {
      const validate = schemas.ajv.getSchema(id);
      validated++;
      if (!validate(JSON.parse(text))) failures.push(`${op.key}: ${res.status} body breaks its schema: ${JSON.stringify(validate.errors.slice(0, 3))}`);
    }
  }
  t.same(failures, [], `${ir.operations.length} operations answer 2xx (${conflicts} a documented state conflict), ${validated} bodies validate against their schemas`);
  return ir.operations.length;
}

/** `mock config validate` accepts the project as scaffolded. */
export async function configValidates(t, dir) {
  const result = await runMock(['config', 'validate'], { cwd: dir });
  t.equal(result.code, 0, 'mock config validate exits 0', { stdout: result.stdout, stderr: result.stderr });
  t.match(result.stdout, /^mock\.yaml: valid\n/);
}

/** The blueprint's smoke-test fixture passes against the project's own server (replay is on in every blueprint). */
export async function smokePasses(t, dir, server) {
  const result = await runMock(['smoke', '--target', server.url, '--format', 'json'], { cwd: dir });
  t.equal(result.code, 0, 'mock smoke exits 0', { stdout: result.stdout, stderr: result.stderr });
  t.match(JSON.parse(result.stdout).summary, { total: 1, passed: 1, failed: 0 }, "the blueprint's smoke test passes");
}

export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
