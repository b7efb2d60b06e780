import type { ValidationIssue } from '../../runtime/index.js';

/** A recorded exchange a finding is about. */
export interface Seen {
  recording_id: number;
  method: string;
  path: string;
  status: number;
}

/** The operation it was routed to (`GET /v1/pets/{petId}`). */
type Routed = Seen & { operation: string };

export interface VerifyReport {
  specs: string[];
  capture_db: string;
  /** The newest this many recordings were read. */
  limit: number;
  exchanges: number;
  /** Anything unmatched, undocumented or breaking its schema: what --fail-on-drift exits 1 for. */
  drift: boolean;
  counts: {
    unmatched: number;
    undocumented_statuses: number;
    undocumented_content_types: number;
    undocumented_fields: number;
    schema_drift: number;
    request_issues: number;
  };
  coverage: {
    operations: number;
    exercised: number;
    percent: number;
    /** Every operation, with the recorded exchanges routed to it (0: never exercised). */
    by_operation: Array<{ operation: string; count: number }>;
  };
  /** No operation has the path, or none has it for the method. */
  unmatched: Array<Seen & { reason: string }>;
  /** The status falls under no documented response (nor its range, nor default). */
  undocumented_statuses: Array<Routed & { documented: string[] }>;
  /** A body of a media type the response does not document (or a body where it documents none). */
  undocumented_content_types: Array<Routed & { content_type: string | null; documented: string[] }>;
  /** Properties of the body its schema does not declare (additionalProperties aside). */
  undocumented_fields: Array<Routed & { fields: string[] }>;
  /** The body breaks its documented schema. */
  schema_drift: Array<Routed & { content_type: string; errors: ValidationIssue[] }>;
  /** The recorded request breaks the operation's parameters or body (the client's side; not drift). */
  request_issues: Array<Routed & { issues: ValidationIssue[] }>;
}

const SHOWN = 10;

function section<T>(title: string, items: readonly T[], line: (item: T) => string): string[] {
  if (items.length === 0) return [];
  const lines = [`${title}: ${items.length}`, ...items.slice(0, SHOWN).map((item) => `  ${line(item)}`)];
  if (items.length > SHOWN) lines.push(`  … ${items.length - SHOWN} more in the JSON report (--output)`);
  return lines;
}

/** The report as a person reads it: counts, then the first findings of each kind. */
export function formatSummary(report: VerifyReport, shownDb: string): string {
  const { coverage } = report;
  const never = coverage.by_operation.filter((o) => o.count === 0).map((o) => o.operation);
  const lines = [
    `mock verify-mocks: ${report.exchanges} recorded exchange(s) of ${shownDb} (the newest, at most ${report.limit}) against ${report.specs.join(', ')}`,
    `coverage: ${coverage.exercised} of ${coverage.operations} operations (${coverage.percent}%)${never.length > 0 ? `; never exercised: ${never.slice(0, SHOWN).join(', ')}${never.length > SHOWN ? ', …' : ''}` : ''}`,
    ...section('unmatched', report.unmatched, (f) => `#${f.recording_id} ${f.method} ${f.path} → ${f.status}: ${f.reason}`),
    ...section('undocumented statuses', report.undocumented_statuses, (f) => `#${f.recording_id} ${f.operation} answered ${f.status} (documented: ${f.documented.join(', ')})`),
    ...section('undocumented content types', report.undocumented_content_types, (f) =>
      `#${f.recording_id} ${f.operation} ${f.status}: ${f.content_type ?? 'a body without Content-Type'} (documented: ${f.documented.length > 0 ? f.documented.join(', ') : 'no body'})`,
    ),
    ...section('undocumented fields', report.undocumented_fields, (f) => `#${f.recording_id} ${f.operation} ${f.status}: ${f.fields.join(', ')}`),
    ...section('schema drift', report.schema_drift, (f) => `#${f.recording_id} ${f.operation} ${f.status} ${f.content_type}: ${f.errors.map((e) => e.message).join('; ')}`),
    ...section('request issues (not drift)', report.request_issues, (f) => `#${f.recording_id} ${f.operation}: ${f.issues.map((i) => i.message).join('; ')}`),
  ];
  const { counts } = report;
  const found = counts.unmatched + counts.undocumented_statuses + counts.undocumented_content_types + counts.undocumented_fields + counts.schema_drift;
  lines.push(report.drift ? `drift: ${found} finding(s)` : 'no drift: every recorded answer is documented and matches its schema');
  return `${lines.join('\n')}\n`;
}
