// `mock bench --conformance-self-test` through the CLI: builds and serves the description
// in-process, probes it, writes the three reports (under --output, else in a temporary directory),
// and fails on a finding; missed negatives are reported, not findings.
import t from 'tap';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { root, runMock, tmpdir } from '../helpers/cli.js';

t.test('the example petstore passes its own self-test', async (t) => {
  const dir = tmpdir();
  const run = await runMock(['bench', '--conformance-self-test', '--spec', path.join(root, 'examples', 'petstore.yaml'), '--output', 'out/', '--json'], { cwd: dir });
  t.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  t.match(summary, { selfTest: true, findings: 0, definiteIssues: 0, target: /^http:\/\/127\.0\.0\.1:\d+$/ });
  t.ok(summary.verdicts.pass > 0);
  t.ok(summary.verdicts.missed_negative > 0, 'missed negatives (free-form strings, long queries) do not fail the run');
  t.equal(summary.verdicts.server_error + summary.verdicts.valid_request_rejected, 0);
  for (const file of ['conformance-report.json', 'conformance-report.html', 'conformance-issues.json']) t.ok(existsSync(path.join(dir, 'out', file)), file);
  const report = JSON.parse(readFileSync(path.join(dir, 'out', 'conformance-report.json'), 'utf8'));
  t.equal(report.selfTest, true);
  t.same(JSON.parse(readFileSync(path.join(dir, 'out', 'conformance-issues.json'), 'utf8')).issues, []);
  // enforce mode: every body mutation and content-type mismatch is rejected, with the mock's problem bodies
  const body = report.probes.filter((p) => p.category === 'request-body' && !p.label.includes('embedded-content'));
  t.ok(body.length > 10);
  t.same(body.filter((p) => p.verdict !== 'pass').map((p) => p.label), []);
  t.ok(report.violations.entries.some((e) => e.category === 'request-body' && e.path === '/v1/pets'));
  t.ok(report.violations.entries.some((e) => e.category === 'query'));
});

t.test('a finding fails the self-test (mock.yaml settings apply to the served mock)', async (t) => {
  const dir = tmpdir();
  // a body limit below the size of a valid pet: the mock refuses the valid request with 413
  writeFileSync(path.join(dir, 'mock.yaml'), 'http:\n  max_body_bytes: 16\n');
  const run = await runMock(['bench', '--conformance-self-test', '--spec', path.join(root, 'examples', 'petstore.yaml'), '--operations', 'createPet'], { cwd: dir });
  t.equal(run.code, 1);
  t.match(run.stdout, /definite issues: 1\n\s+valid_request_rejected positive POST \/v1\/pets -> 413/);
  t.match(run.stdout, /\n {2}findings: 1 \(exit 1; missed negatives are reported, not findings\)\n/);
  // without --output the reports go to a temporary directory the summary names, not into the project
  const reports = /reports: (\S+)conformance-report\.json, /.exec(run.stdout)?.[1];
  t.ok(reports?.startsWith(path.join(os.tmpdir(), 'mock-conformance-')), `reports in ${reports}`);
  t.teardown(() => rmSync(reports, { recursive: true, force: true }));
  t.same(readdirSync(dir), ['mock.yaml'], 'nothing written into the current directory');
  const issues = JSON.parse(readFileSync(path.join(reports, 'conformance-issues.json'), 'utf8'));
  t.match(issues.issues, [{ verdict: 'valid_request_rejected', label: 'positive', operation: 'POST /v1/pets', status: 413, expected: '2xx-3xx' }]);
  t.equal(issues.count, 1);
});

const SECURED = `openapi: 3.0.3
info: { title: Secured, version: 1.0.0 }
security: [{ key: [] }]
paths:
  /things:
    get:
      responses: { '200': { description: ok, content: { application/json: { schema: { type: array, items: { type: string } } } } } }
  /basic:
    get:
      security: [{ basic: [] }]
      responses: { '200': { description: ok } }
  /jwt:
    get:
      security: [{ jwt: [] }, { query: [] }]
      responses: { '200': { description: ok } }
  /oauth:
    get:
      security: [{ oauth: [read] }]
      responses: { '200': { description: ok } }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Api-Key }
    query: { type: apiKey, in: query, name: api_key }
    basic: { type: http, scheme: basic }
    jwt: { type: http, scheme: bearer, bearerFormat: JWT }
    oauth: { type: oauth2, flows: { clientCredentials: { tokenUrl: /token, scopes: { read: read } } } }
`;

t.test('security probes meet a server that tells credentials apart: every bad-credentials probe is refused', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'secured.yaml'), SECURED);
  const run = await runMock(['bench', '--conformance-self-test', '--spec', 'secured.yaml', '--output', 'out/', '--json'], { cwd: dir });
  t.equal(run.code, 0, run.stdout + run.stderr);
  const report = JSON.parse(readFileSync(path.join(dir, 'out', 'conformance-report.json'), 'utf8'));
  const security = report.probes.filter((p) => p.category === 'security');
  t.same(
    security.map((p) => p.label).sort(),
    ['security:bad-apikey:X-Api-Key', 'security:bad-basic', 'security:bad-bearer', 'security:bad-bearer', 'security:bad-apikey:api_key', 'security:no-auth', 'security:no-auth', 'security:no-auth', 'security:no-auth'].sort(),
  );
  for (const p of security) t.match(p, { verdict: 'pass', status: 401 }, `${p.label} ${p.operation}: 401`);
  t.same(report.probes.filter((p) => p.label === 'positive').map((p) => p.verdict), ['pass', 'pass', 'pass', 'pass'], 'the sample credentials pass');
});

t.test("with mock.yaml auth pins, the self-test serves them and the probes carry the user's credentials", async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'secured.yaml'), SECURED);
  writeFileSync(path.join(dir, 'mock.yaml'), 'auth:\n  schemes:\n    key: { api_keys: [the-real-key] }\n');
  const refused = await runMock(['bench', '--conformance-self-test', '--spec', 'secured.yaml', '--operations', 'GET /things', '--output', 'out/', '--json'], { cwd: dir });
  t.equal(refused.code, 1, 'without the pinned key the positive probe is refused: a finding');
  t.match(JSON.parse(refused.stdout), { definiteIssues: 1 });
  const passed = await runMock(['bench', '--conformance-self-test', '--spec', 'secured.yaml', '--operations', 'GET /things', '--headers', 'X-Api-Key: the-real-key', '--output', 'out/', '--json'], { cwd: dir });
  t.equal(passed.code, 0, passed.stdout + passed.stderr);
});

t.test('--conformance-http2: the probes speak HTTP/2, to the self-test mock and to a target', async (t) => {
  const dir = tmpdir();
  const run = await runMock(['bench', '--conformance-self-test', '--conformance-http2', '--spec', path.join(root, 'examples', 'petstore.yaml'), '--output', 'out/', '--json'], { cwd: dir });
  t.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  t.match(summary, { httpVersion: '2', selfTest: true, findings: 0 });
  t.equal(summary.verdicts.server_error + summary.verdicts.valid_request_rejected + summary.verdicts.no_response, 0);
  t.match(readFileSync(path.join(dir, 'out', 'conformance-report.html'), 'utf8'), /over HTTP\/2/);
  // a server that speaks HTTP/1.1 only cannot answer an HTTP/2 client
  const http1 = http.createServer((req, res) => res.end('{}'));
  await new Promise((resolve) => http1.listen(0, '127.0.0.1', resolve));
  t.teardown(() => http1.close());
  const target = `http://127.0.0.1:${http1.address().port}`;
  const refused = await runMock(['bench', '--conformance', '--conformance-http2', '--target', target, '--spec', path.join(root, 'examples', 'petstore.yaml'), '--operations', 'listPets', '--timeout', '3s'], { cwd: dir });
  t.equal(refused.code, 1, 'no probe answered');
  t.match(refused.stderr, /no probe got an answer from http:\/\/127\.0\.0\.1:\d+ .*with --conformance-http2 it must speak HTTP\/2/);
});
