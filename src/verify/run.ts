import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { BuildOptions, Ir } from '../../compiler/index.js';
import type { Engine, Exchange, Recording, ValidationIssue } from '../../runtime/index.js';
import { SchemaView } from '../conformance/schema-view.js';
import { loadIr } from '../requests/load-ir.js';
import type { VerifyReport } from './report.js';
import { undeclaredFields } from './undeclared-fields.js';

export interface VerifyOptions {
  /** What to build (the descriptions, their folder, --allow-ref); built without custom routes into a temporary folder. */
  build: BuildOptions;
  /** The recordings database (absolute). */
  captureDb: string;
  /** How many of the newest recordings to check. */
  limit: number;
}

/**
 * `mock verify-mocks`: the newest recorded exchanges held against the descriptions, with the
 * server's own router and validators (a build of the descriptions alone, so an answer of a custom
 * route or a runtime mock is judged by what the description documents).
 */
export async function verifyMocks(options: VerifyOptions): Promise<VerifyReport> {
  const { RecordingsFile, loadBuild, Engine, Exchange } = await import('../../runtime/index.js');
  // the database first: a wrong path fails at once, before a build
  const db = await RecordingsFile.open(options.captureDb, '--capture-db');
  let recordings: Recording[];
  try {
    recordings = db.newest(options.limit);
  } finally {
    db.close();
  }
  const { build } = await import('../../compiler/index.js');
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'mock-verify-'));
  try {
    const built = await build({ ...options.build, routes: [], routeRules: [], outDir, name: 'verify' });
    const validation = { mode: 'enforce' as const, aggregate_errors: true, validate_responses: false, status_code: 400, overrides: {} };
    const engine = new Engine(await loadBuild(built.dir), { validation, templateExpand: false, logger: pino({ level: 'silent' }) });
    const { specs, cwd, allowRefs } = options.build;
    const ir = await loadIr(specs, cwd, 'verify', allowRefs);
    return check(recordings, engine, Exchange, ir, options);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const firstValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

const JSON_TYPE = /[/+]json\b/i;

function check(recordings: Recording[], engine: Engine, exchange: typeof Exchange, ir: Ir, options: VerifyOptions): VerifyReport {
  const view = new SchemaView(ir.definitions);
  const described = new Map(ir.operations.map((op) => [op.key, op]));
  const operations = engine.build.operations;
  const counts = operations.map(() => 0);
  const report: VerifyReport = {
    specs: options.build.specs.map((s) => s.source),
    capture_db: options.captureDb,
    limit: options.limit,
    exchanges: recordings.length,
    drift: false,
    counts: { unmatched: 0, undocumented_statuses: 0, undocumented_content_types: 0, undocumented_fields: 0, schema_drift: 0, request_issues: 0 },
    coverage: { operations: operations.length, exercised: 0, percent: 0, by_operation: [] },
    unmatched: [],
    undocumented_statuses: [],
    undocumented_content_types: [],
    undocumented_fields: [],
    schema_drift: [],
    request_issues: [],
  };
  for (const recording of recordings) {
    const seen = { recording_id: recording.id, method: recording.method, path: recording.path, status: recording.status };
    const body = recording.request_body.byteLength > 0 ? Buffer.from(recording.request_body) : undefined;
    const ex = new exchange({ method: recording.method, path: recording.path, rawQuery: recording.query, headers: recording.request_headers, body });
    engine.route(ex);
    const { match } = ex;
    if (match.kind === 'none') report.unmatched.push({ ...seen, reason: 'no operation has this path' });
    else if (match.kind === 'method') report.unmatched.push({ ...seen, reason: `no ${recording.method} operation has this path (it has ${match.allow})` });
    if (match.kind !== 'operation') continue;
    counts[match.index]++;
    const routed = { ...seen, operation: operations[match.index].key };
    const issues = requestIssues(ex.validated());
    if (issues.length > 0) report.request_issues.push({ ...routed, issues });

    const contentType = firstValue(recording.response_headers['content-type']);
    const answer = engine.checkAnswer(match.index, recording.status, contentType, recording.response_body);
    if (answer.code === null) {
      report.undocumented_statuses.push({ ...routed, documented: answer.codes });
      continue;
    }
    if (answer.type === null) {
      if (recording.response_body.byteLength > 0) report.undocumented_content_types.push({ ...routed, content_type: contentType ?? null, documented: answer.types });
      continue;
    }
    if (answer.issues.length > 0) report.schema_drift.push({ ...routed, content_type: answer.type, errors: answer.issues });
    const schema = described
      .get(routed.operation)
      ?.responses.find((r) => r.status === answer.code)
      ?.contents.find((c) => c.mediaType === answer.type)?.schema;
    if (schema === undefined || !JSON_TYPE.test(answer.type)) continue;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(recording.response_body).toString('utf8'));
    } catch {
      continue; // schema drift already says so
    }
    const fields = undeclaredFields(view, schema, value);
    if (fields.length > 0) report.undocumented_fields.push({ ...routed, fields });
  }
  report.coverage.by_operation = operations.map((op, i) => ({ operation: op.key, count: counts[i] }));
  report.coverage.exercised = counts.filter((n) => n > 0).length;
  report.coverage.percent = operations.length === 0 ? 0 : Math.round((report.coverage.exercised / operations.length) * 1000) / 10;
  const c = report.counts;
  c.unmatched = report.unmatched.length;
  c.undocumented_statuses = report.undocumented_statuses.length;
  c.undocumented_content_types = report.undocumented_content_types.length;
  c.undocumented_fields = report.undocumented_fields.length;
  c.schema_drift = report.schema_drift.length;
  c.request_issues = report.request_issues.length;
  report.drift = c.unmatched + c.undocumented_statuses + c.undocumented_content_types + c.undocumented_fields + c.schema_drift > 0;
  return report;
}

/** What the validation found, a content type the operation does not accept included. */
function requestIssues(validated: { issues: readonly ValidationIssue[]; unsupportedType?: { given?: string; accepted: readonly string[] } }): ValidationIssue[] {
  const issues = [...validated.issues];
  const unsupported = validated.unsupportedType;
  if (unsupported !== undefined) {
    const accepted = unsupported.accepted.length > 0 ? `it accepts ${unsupported.accepted.join(', ')}` : 'it takes no body';
    issues.push({ location: 'body', name: '', message: `content type ${unsupported.given ?? '(none)'} is not accepted (${accepted})`, keyword: 'content-type' });
  }
  return issues;
}
