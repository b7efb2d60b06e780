// `mock bench --conformance` against a deliberately broken server (fixtures.js): the exact
// findings, missed negatives, response-schema mismatches and server-side violation entries.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runMock, tmpdir } from '../helpers/cli.js';
import { BROKEN_SPEC, GOOD_TOKEN, startBrokenServer } from './fixtures.js';

const key = (p) => `${p.verdict} ${p.label} ${p.operation}`;

async function conformance(t, extraArgs = [], env = {}) {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'broken.yaml'), BROKEN_SPEC);
  const server = await startBrokenServer();
  t.teardown(() => server.close());
  const args = ['bench', '--conformance', '--spec', 'broken.yaml', '--target', server.url, '--auth', `bearer:${GOOD_TOKEN}`, '--output', 'out/', ...extraArgs];
  const result = await runMock(args, { cwd: dir, env });
  const read = (file) => JSON.parse(readFileSync(path.join(dir, 'out', file), 'utf8'));
  return { ...result, server, dir, report: read('conformance-report.json'), issues: read('conformance-issues.json') };
}

t.test('findings, missed negatives and response checks are exactly what the server gets wrong', async (t) => {
  const run = await conformance(t, ['--conformance-header', 'X-Conformance-Run: broken-1', '--validate-response-schemas', '--inject-response-violations', '--json']);
  t.equal(run.code, 1, 'exit 1 on findings');
  const summary = JSON.parse(run.stdout);
  const { report, issues, server } = run;

  const definite = [
    'server_error request-body:wrong-type POST /items',
    'server_error owasp:sqli:body.name POST /items',
    'server_error parameters:bad-path-param:id GET /items/{id}',
    'valid_request_rejected positive DELETE /items/{id}',
  ];
  t.same(issues.issues.map(key).sort(), [...definite].sort(), 'the definite-issues file lists only server errors and rejected valid requests');
  t.equal(issues.count, 4);
  t.match(issues.issues.find((i) => i.label === 'parameters:bad-path-param:id'), { status: 500, expected: '4xx', request: { method: 'GET', path: '/items/not-a-number' }, response: { excerpt: 'id is NaN' } });
  t.match(issues.issues.find((i) => i.verdict === 'valid_request_rejected'), { status: 405, expected: '2xx-3xx' });

  const missed = report.probes.filter((p) => p.verdict === 'missed_negative').map(key).sort();
  t.same(
    missed,
    [
      'missed_negative owasp:command-injection:body.name POST /items',
      'missed_negative owasp:ldap-injection:body.name POST /items',
      'missed_negative request-body:additional-property:mock_unexpected_property POST /items',
      'missed_negative request-body:integer-as-float:qty POST /items',
      'missed_negative request-body:min:qty POST /items',
      'missed_negative request-body:type-mismatch:qty POST /items',
    ],
  );
  const others = report.probes.filter((p) => !['missed_negative', 'server_error', 'valid_request_rejected'].includes(p.verdict));
  t.same([...new Set(others.map((p) => p.verdict))], ['pass'], 'every other probe passes');
  t.same(summary.verdicts, { pass: others.length, server_error: 3, valid_request_rejected: 1, missed_negative: 6, unexpected_status: 0, no_response: 0, skipped: 0 });
  t.equal(summary.operations, 4);
  t.equal(summary.probes, report.probes.length);

  // what was sent
  t.equal(server.seen.requests, report.probes.length, 'one request per probe');
  t.equal(server.seen.withoutRunHeader, 0, '--conformance-header on every probe');
  t.ok(server.seen.longestUrl > 9216, 'the uri-too-long probe carries a 9 KiB query string');
  const labels = report.probes.map((p) => p.label);
  for (const label of ['security:bad-bearer', 'security:no-auth', 'parameters:missing-query:limit', 'request-body:content-type-mismatch:xml', 'request-body:embedded-content:yaml', 'owasp:xss:body.name']) {
    t.ok(labels.includes(label), label);
  }
  t.notOk(labels.some((l) => l.startsWith('security:bad-basic') || l.startsWith('security:bad-apikey')), 'only the declared scheme is probed');
  t.match(report.probes.find((p) => p.label === 'security:no-auth'), { verdict: 'pass', status: 401 });
  t.match(report.probes.find((p) => p.operation === 'GET /items/{id}' && p.label === 'positive'), { verdict: 'pass', status: 200 });

  // --validate-response-schemas and --inject-response-violations
  const mismatched = report.probes.filter((p) => p.responseCheck?.mismatch).map((p) => `${p.operation} ${p.label}: ${p.responseCheck.mismatch}`).sort();
  t.same(mismatched, [
    'GET /items/{id} positive: /id must be integer',
    'POST /items request-body:integer-as-float:qty: /qty must be integer',
    'POST /items request-body:type-mismatch:qty: /qty must be integer',
  ]);
  t.equal(report.responseChecks.mismatches, 3);
  t.ok(report.responseChecks.injected.attempted > 0);
  t.equal(report.responseChecks.injected.detected, report.responseChecks.injected.attempted, 'every injected violation caught');
  t.equal(summary.findings, 4 + 3);

  // server-side violation entries, merged (MOCK_CONFORMANCE_BUFFER_UNIQUE defaults to true)
  t.equal(report.violations.unique, true);
  t.same(
    report.violations.entries.map(({ method, path, category, reason, occurrences }) => ({ method, path, category, reason, occurrences })),
    [
      { method: 'GET', path: '/items', category: 'query', reason: "query parameter 'limit' is required", occurrences: 1 },
      { method: 'POST', path: '/items', category: 'request-body', reason: 'body is not JSON', occurrences: 1 },
      { method: 'POST', path: '/items', category: 'request-body', reason: 'name must be a string of 1-20 characters', occurrences: 12 },
      { method: 'POST', path: '/items', category: 'request-body', reason: 'Bad request', occurrences: 4 },
    ],
  );
});

t.test('MOCK_CONFORMANCE_BUFFER_UNIQUE=false keeps one violation entry per answer', async (t) => {
  const run = await conformance(t, [], { MOCK_CONFORMANCE_BUFFER_UNIQUE: 'false' });
  t.equal(run.code, 1);
  const entries = run.report.violations.entries;
  t.equal(run.report.violations.unique, false);
  t.equal(entries.length, 18);
  t.ok(entries.every((e) => e.occurrences === 1));
  t.equal(entries.filter((e) => e.reason === 'name must be a string of 1-20 characters').length, 12);
  t.match(run.stdout, /definite issues: 4/);
  t.match(run.stdout, /server_error parameters:bad-path-param:id GET \/items\/\{id\} -> 500/);
  t.notOk(run.report.responseChecks, 'no response checks unless asked');
});

t.test('--conformance needs a target', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'broken.yaml'), BROKEN_SPEC);
  const run = await runMock(['bench', '--conformance', '--spec', 'broken.yaml'], { cwd: dir });
  t.not(run.code, 0);
  t.match(run.stderr, /--target/);
});
