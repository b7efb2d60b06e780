// Real-world descriptions of the shared corpus build and serve through the CLI: every operation
// answers a valid request with a 2xx whose body validates against its response schema, and an
// invalid request with the validation status, over HTTP/1.1 and over HTTP/2 (h2c) (the largest ones: see SELF_TESTED_ONLY).
import t from 'tap';
import http2 from 'node:http2';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { corpus, startMock, tmpdir } from '../helpers/cli.js';
import { invalidRequest, loadOperationsOf, readDescriptions } from '../helpers/requests.js';
import { LARGEST } from '../conformance/corpus.js';
import { bodyFormat } from '../../dist/compiler/emit/media.js';
import { serverBasePath } from '../../dist/compiler/ir/mount.js';
import { loadBuild, runtimeRequire } from '../../dist/runtime/terminal/openapi/load-build.js';

const dir = path.join(corpus, 'openapi');
/**
 * Operations whose request body no value can satisfy: their oneOf variants accept the same
 * objects, so every body matches more than one and fails `oneOf`. Enforce mode rightly rejects them.
 */
const UNSATISFIABLE = new Set([
  'ory-kratos.json POST /self-service/registration',
  'ory-kratos.json POST /self-service/settings',
  // the test's request generator does not honour `not` (images: not a string), so it cannot build a valid body
  'openai.yaml POST /v1/images/edits',
]);
/**
 * The five largest descriptions take most of this file's time, nearly all of it building them.
 * test/conformance/self-test-corpus*.test.js build and serve every description anyway and check a
 * superset of what this file checks (every positive accepted, every 2xx body valid, negatives
 * rejected), over real sockets through the same server, over HTTP/1.1 and (self-test-corpus-http2)
 * over HTTP/2; here they would be built a second time.
 */
const SELF_TESTED_ONLY = new Set(LARGEST);
const files = readdirSync(dir)
  .filter((f) => /\.(ya?ml|json)$/.test(f) && !SELF_TESTED_ONLY.has(f))
  .sort();

/**
 * One `mock serve` for all of them (mock.yaml lists every description, as a user lists several):
 * a server per description cost a CLI start and a build process each, most of this file's time.
 * Each description is mounted where it mounts alone (its servers path) under a prefix of its own,
 * so that their operations do not collide; the answers, validation and bodies checked per
 * description are the same, and the IR below is the build's (the same descriptions, base paths
 * and order).
 */
const inputs = (await readDescriptions(files.map((file) => path.join(dir, file)))).map((input, i) => {
  const prefix = `/${files[i].replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9-]/g, '-')}`;
  return { ...input, prefix, basePath: `${prefix}${serverBasePath(input.description.document)}` };
});
const project = t.testdir({
  'mock.yaml': `specs:\n${inputs.map((input) => `  - path: ${JSON.stringify(input.source)}\n    base_path: ${JSON.stringify(input.basePath)}\n`).join('')}`,
});
const out = tmpdir();
const server = await startMock(['--out', out, '--seed', '3', '--validation-status', '422'], { cwd: project });
t.teardown(() => server.stop());
// the same build over HTTP/2 (h2c): every request is sent there too, and answered alike
const overH2 = await startMock(['--out', out, '--seed', '3', '--validation-status', '422', '--http-version', '2'], { cwd: project });
t.teardown(() => overH2.stop());
const session = http2.connect(overH2.url);
t.teardown(() => session.close());

/** The status an HTTP/2 request gets (its body read and dropped). */
function h2Status(req) {
  return new Promise((resolve, reject) => {
    // node's client ends a GET's stream with its HEADERS unless told there is a body
    const stream = session.request({ ':method': req.method, ':path': req.path, ...req.headers }, { endStream: req.body === undefined });
    let status;
    stream.on('response', (h) => (status = h[':status']));
    stream.on('data', () => undefined);
    stream.on('end', () => resolve(status));
    stream.on('error', reject);
    if (req.body === undefined) return;
    stream.end(req.body);
  });
}
const { ir, schemas, factory } = loadOperationsOf(inputs);
// the build's own standalone validators: compiling them here with Ajv again would double the work
const [buildName] = readdirSync(out);
const validators = (await loadBuild(path.join(out, buildName))).createValidators(runtimeRequire);

files.forEach((file, spec) => {
  t.test(file, async (t) => {
    const operations = ir.operations.filter((op) => op.spec === spec);
    const failures = [];
    let checked = 0;
    for (const op of operations) {
      // the operation's key where the description is served alone
      const key = `${op.method} ${op.key.slice(op.method.length + 1 + inputs[spec].prefix.length)}`;
      if (UNSATISFIABLE.has(`${file} ${key}`)) continue;
      const req = factory.valid(op);
      const res = await fetch(server.url + req.path, { method: req.method, headers: req.headers, body: req.body });
      const text = await res.text();
      const h2 = await h2Status(req);
      if (h2 !== res.status) failures.push(`${key}: valid request got ${res.status} over HTTP/1.1 and ${h2} over HTTP/2`);
      const only3xx = !op.responses.some((r) => r.status.startsWith('2')) && op.responses.some((r) => r.status.startsWith('3'));
      const expected = only3xx ? [300, 399] : [200, 299];
      if (res.status < expected[0] || res.status > expected[1]) {
        failures.push(`${key}: valid request got ${res.status} ${text.slice(0, 300)}`);
        continue;
      }
      const ri = op.responses.findIndex((r) => String(res.status) === r.status || r.status === `${String(res.status)[0]}XX`);
      const type = (res.headers.get('content-type') ?? '').split(';')[0];
      const ci = ri === -1 ? -1 : op.responses[ri].contents.findIndex((c) => c.mediaType === type || (c.mediaType === '*/*' && type === 'application/json'));
      const id = ri === -1 || ci === -1 ? undefined : schemas.ids[op.index].responses[ri][ci];
      if (id && bodyFormat(type) === 'json' && text !== '') {
        const validate = validators[id];
        checked++;
        if (!validate(JSON.parse(text))) failures.push(`${key}: ${res.status} body breaks its schema: ${JSON.stringify(validate.errors.slice(0, 3))}`);
      }
      const bad = invalidRequest(op, factory, ir.definitions);
      if (bad) {
        const rejected = await fetch(server.url + bad.path, { method: bad.method, headers: bad.headers, body: bad.body });
        await rejected.arrayBuffer();
        if (rejected.status !== 422) failures.push(`${key}: invalid request (${bad.why}) got ${rejected.status}, expected 422`);
        const h2 = await h2Status(bad);
        if (h2 !== 422) failures.push(`${key}: invalid request (${bad.why}) got ${h2} over HTTP/2, expected 422`);
      }
    }
    t.same(failures, [], `${operations.length} operations, ${checked} bodies validated`);
  });
});
