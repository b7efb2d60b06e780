import { MockError } from '../../common/errors.js';
import type { SpecInput } from '../../compiler/index.js';
import { TOOL_VERSION } from '../../common/version.js';
import { writeWhole } from '../../common/write-whole.js';
import { displayPath, loadConfig } from '../config/index.js';
import { selectOperations } from '../bench/plan.js';
import { loadIr } from '../requests/index.js';
import { renderHtml } from './html.js';
import { HttpClient, isFailure } from './http-client.js';
import type { ConformanceOptions } from './options.js';
import { planOperation } from './plan.js';
import { DEFINITE, EXPECTED_RANGE, verdictOf, type Probe } from './probe.js';
import { issuesFile, excerpt, reportPaths, summarise, temporaryReportDir, type ConformanceReport, type ProbeResult, type ResponseSummary } from './report.js';
import { RequestBuilder } from './request-model.js';
import { ResponseChecker } from './response-check.js';
import { SchemaView } from './schema-view.js';
import { selfTestAuth } from './self-test-auth.js';
import { startSelfTestServer, type SelfTestServer } from './self-test.js';
import { ViolationBuffer } from './violations.js';
import { Validators } from './validators.js';

const DEFAULT_CONCURRENCY = 8;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_SEED = 1;
/** Definite issues printed in the text summary (all are in the issues file). */
const PRINTED_ISSUES = 20;

/**
 * Runs the conformance suite and writes its reports; resolves to the exit code: 1 on a finding
 * (report.ts `summarise`), 0 otherwise. Missed negatives are reported, not findings: a server may
 * rightly accept what a stricter one refuses, and every self-test has some (free-form strings).
 */
export async function runConformance(options: ConformanceOptions): Promise<number> {
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const started = performance.now();
  if (!options.selfTest && !options.target) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', '--conformance needs the server to probe: pass --target <url>, or use --conformance-self-test to probe the mock of the description itself');
  }
  if (options.target && !options.selfTest && !/^https?:\/\/[^/]/.test(options.target)) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--target must be an http(s) URL, got "${options.target}"`);
  }
  const cap = options.reportMissedCap;
  if (!Number.isInteger(cap) || cap < 0) throw new MockError('MOCK_ERR_FLAG_INVALID', `--report-missed-cap must be a whole number of rows (0 for no table), got ${cap}`);
  const extraHeaders = (options.conformanceHeader === undefined ? [] : [options.conformanceHeader].flat()).map(parseHeader);

  const resolved = loadConfig({ cwd: options.cwd });
  const { config } = resolved;
  const unique = options.bufferUnique ?? config.conformance.buffer_unique;
  const basePath = options.basePath === undefined ? undefined : normaliseBasePath(options.basePath);
  const specs: SpecInput[] = options.specs.map((s) => (basePath !== undefined && s.basePath === undefined ? { ...s, basePath } : s));
  const ir = await loadIr(specs, options.cwd, 'conformance', options.allowRefs);
  const chosen = selectOperations(ir.operations, (options.operations ?? []).map((o) => o.trim()).filter((o) => o !== ''));
  const operations = ir.operations.filter((op) => chosen.has(op));

  let server: SelfTestServer | undefined;
  let client: HttpClient | undefined;
  try {
    const headers = Object.fromEntries(Object.entries(options.headers).map(([k, v]) => [k.toLowerCase(), v]));
    if (options.selfTest) server = await startSelfTestServer(specs, options.cwd, config, selfTestAuth(resolved, ir.operations, options.auth, headers), options.allowRefs, options.http2 === true ? '2' : undefined);
    // the self-test's build compiled the same schemas: use its validators when it is the same IR
    const sameIr = server !== undefined && server.operations.join('\n') === ir.operations.map((op) => op.key).join('\n');
    const view = new SchemaView(ir.definitions);
    const validators = new Validators(ir, sameIr ? server?.validators : undefined);
    const builder = new RequestBuilder(ir.definitions, validators, options.seed ?? DEFAULT_SEED);
    const plans = operations.map((op) => ({ op, ...planOperation(op, { builder, view, validators, headers, auth: options.auth, extraHeaders }) }));
    const probes: Probe[] = plans.flatMap((p) => p.probes);

    const target = server?.url ?? (options.target as string);
    const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    client = new HttpClient(target, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, concurrency, options.http2 === true);
    const violations = new ViolationBuffer(unique);
    const checker = options.validateResponseSchemas || options.injectResponseViolations ? new ResponseChecker(validators, view, options.injectResponseViolations) : undefined;
    const progress = !options.json && process.stderr.isTTY ? (done: number) => process.stderr.write(`\rmock conformance: ${done}/${probes.length} probes`) : undefined;

    const sent = await runPool(probes, concurrency, async (probe) => {
      const answer = await (client as HttpClient).send(probe.request);
      return answer;
    }, progress);
    if (progress) process.stderr.write('\r\x1b[K');

    const unreachable = sent.length > 0 && sent.every((a) => isFailure(a) && a.failure === 'network');
    if (unreachable) {
      const first = sent[0] as { error: string };
      throw new MockError('MOCK_ERR_FLAG_INVALID', `no probe got an answer from ${target} (${first.error}); check --target${options.http2 === true ? ' (with --conformance-http2 it must speak HTTP/2: h2c by prior knowledge on http://)' : ''}`);
    }

    const results: ProbeResult[] = [];
    let i = 0;
    for (const { op, probes: planned, skipped } of plans) {
      for (const s of skipped) {
        results.push({ label: s.label, category: 'positive', operation: s.operation, note: 'not sent', request: { method: op.method, path: op.path, bodyBytes: 0 }, expected: EXPECTED_RANGE.positive, status: null, verdict: 'skipped', reason: s.reason });
      }
      for (const probe of planned) {
        const answer = sent[i++];
        const request = requestSummary(probe);
        const base = { label: probe.label, category: probe.category, operation: probe.operation, note: probe.note, request, expected: EXPECTED_RANGE[probe.expect] };
        if (isFailure(answer)) {
          const notSent = answer.failure === 'send';
          results.push({ ...base, status: null, verdict: notSent ? 'skipped' : 'no_response', durationMs: answer.durationMs, reason: notSent ? `could not be sent: ${answer.error}` : answer.error });
          continue;
        }
        const verdict = verdictOf(probe.expect, answer.status);
        const result: ProbeResult = { ...base, status: answer.status, verdict, durationMs: answer.durationMs };
        if (verdict !== 'pass') result.response = { contentType: answer.contentType, excerpt: excerpt(answer.body) };
        if (verdict === 'server_error' && server) {
          const log = server.errorsFor(probe.request.method, probe.request.path);
          if (log.length > 0) result.serverLog = log.slice(0, 3).map((l) => excerpt(l, 2000));
        }
        violations.record(op.method, op.path, probe.label, answer.status, answer.contentType, answer.body);
        const check = checker?.check(op, answer.status, answer.contentType, answer.body, answer.stream);
        if (check) result.responseCheck = check;
        results.push(result);
      }
    }

    const responseSummary = checker ? summariseResponses(results) : undefined;
    const durationMs = Math.round(performance.now() - started);
    const report: ConformanceReport = {
      tool: 'mock',
      version: TOOL_VERSION,
      generatedAt: new Date().toISOString(),
      target,
      httpVersion: options.http2 === true ? '2' : '1.1',
      selfTest: options.selfTest,
      specs: specs.map((s) => s.source),
      summary: summarise(results, operations.length, durationMs, responseSummary),
      probes: results,
      violations: { unique, entries: violations.entries() },
      ...(responseSummary ? { responseChecks: responseSummary } : {}),
      ...(server ? { buildWarnings: server.warnings } : {}),
    };
    const files = reportPaths(options.output ?? temporaryReportDir(), options.cwd);
    writeWhole(files.json, `${JSON.stringify(report, null, 2)}\n`);
    writeWhole(files.html, renderHtml(report, cap));
    writeWhole(files.issues, `${JSON.stringify(issuesFile(report), null, 2)}\n`);
    write(options.json ? `${JSON.stringify(jsonSummary(report, files))}\n` : textSummary(report, files, options.cwd));
    return report.summary.findings > 0 ? 1 : 0;
  } finally {
    client?.close();
    await server?.stop();
  }
}

/** Runs `work` over `items` with at most `limit` in flight; results in item order. */
async function runPool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>, progress?: (done: number) => void): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  let lastShown = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
      done++;
      if (progress && (done === items.length || performance.now() - lastShown > 100)) {
        lastShown = performance.now();
        progress(done);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** `--base-path api/` is `/api`; `/` (or empty) mounts at the root. */
function normaliseBasePath(basePath: string): string {
  const trimmed = basePath.trim().replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** `Name: value` of --conformance-header. */
function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon === -1 ? '' : text.slice(0, colon).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new MockError('MOCK_ERR_FLAG_INVALID', `--conformance-header must be "Name: value", got "${text}"`);
  return [name, text.slice(colon + 1).trim()];
}

function requestSummary(probe: Probe): ProbeResult['request'] {
  const r = probe.request;
  const out: ProbeResult['request'] = { method: r.method, path: excerpt(r.path, 300), bodyBytes: r.body === undefined ? 0 : Buffer.byteLength(r.body) };
  if (r.headers['content-type']) out.contentType = r.headers['content-type'];
  if (r.body !== undefined && r.body !== '') out.body = excerpt(r.body, 300);
  return out;
}

function summariseResponses(results: ProbeResult[]): ResponseSummary {
  const checks = results.map((r) => r.responseCheck).filter((c) => c !== undefined);
  const out: ResponseSummary = { checked: checks.length, mismatches: checks.filter((c) => c.mismatch !== undefined).length };
  const injected = checks.map((c) => c.injected).filter((i) => i !== undefined);
  if (injected.length > 0 || checks.some((c) => 'injected' in c)) {
    out.injected = {
      attempted: injected.filter((i) => i.how !== null).length,
      detected: injected.filter((i) => i.detected === true).length,
      undetected: injected.filter((i) => i.detected === false).length,
      notInjectable: injected.filter((i) => i.how === null).length,
    };
  }
  return out;
}

function jsonSummary(report: ConformanceReport, files: { json: string; html: string; issues: string }): unknown {
  return {
    target: report.target,
    httpVersion: report.httpVersion,
    selfTest: report.selfTest,
    specs: report.specs,
    ...report.summary,
    violations: report.violations.entries.length,
    ...(report.responseChecks ? { responseChecks: report.responseChecks } : {}),
    reports: files,
  };
}

function textSummary(report: ConformanceReport, files: { json: string; html: string; issues: string }, cwd: string): string {
  const s = report.summary;
  const v = s.verdicts;
  const lines: string[] = [];
  lines.push(
    `mock conformance: ${s.operations} operation(s) of ${report.specs.join(', ')} against ${report.target}${report.httpVersion === '2' ? ' over HTTP/2' : ''}${report.selfTest ? ' (self-test, enforce mode)' : ''}`,
    `  ${s.probes} probes in ${(s.durationMs / 1000).toFixed(1)} s: ${v.pass} pass, ${v.missed_negative} missed negative(s), ${v.server_error} server error(s), ${v.valid_request_rejected} valid request(s) rejected` +
      `${v.unexpected_status ? `, ${v.unexpected_status} unexpected status` : ''}${v.no_response ? `, ${v.no_response} without answer` : ''}${v.skipped ? `, ${v.skipped} skipped` : ''}`,
  );
  for (const [category, row] of Object.entries(s.categories)) {
    const parts = Object.entries(row).map(([verdict, n]) => `${n} ${verdict}`);
    lines.push(`    ${category.padEnd(13)} ${parts.join(', ')}`);
  }
  if (report.violations.entries.length > 0) lines.push(`  server-side violation entries: ${report.violations.entries.length}${report.violations.unique ? ' (merged)' : ''}`);
  if (report.responseChecks) {
    const r = report.responseChecks;
    lines.push(`  response schemas: ${r.checked} checked, ${r.mismatches} mismatch(es)${r.injected ? `; injected violations: ${r.injected.detected}/${r.injected.attempted} detected, ${r.injected.notInjectable} not injectable` : ''}`);
  }
  const issues = report.probes.filter((p) => DEFINITE.has(p.verdict));
  if (issues.length === 0) lines.push('  definite issues: none');
  else {
    lines.push(`  definite issues: ${issues.length}`);
    for (const p of issues.slice(0, PRINTED_ISSUES)) lines.push(`    ${p.verdict} ${p.label} ${p.operation} -> ${p.status}: ${(p.response?.excerpt ?? '').slice(0, 160).replace(/\s+/g, ' ')}`);
    if (issues.length > PRINTED_ISSUES) lines.push(`    … ${issues.length - PRINTED_ISSUES} more in ${displayPath(files.issues, cwd)}`);
  }
  for (const p of report.probes.filter((r) => r.verdict === 'skipped').slice(0, PRINTED_ISSUES)) lines.push(`  skipped ${p.label} ${p.operation}: ${p.reason}`);
  lines.push(`  findings: ${s.findings} (exit ${s.findings > 0 ? 1 : 0}; missed negatives are reported, not findings)`);
  lines.push(`  reports: ${displayPath(files.json, cwd)}, ${displayPath(files.html, cwd)}, ${displayPath(files.issues, cwd)}`);
  return `${lines.join('\n')}\n`;
}
