import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { VERDICTS, type Verdict } from './probe.js';
import type { ResponseCheck } from './response-check.js';
import type { ViolationEntry } from './violations.js';

/** One probe as the JSON report records it. */
export interface ProbeResult {
  label: string;
  category: string;
  operation: string;
  note: string;
  request: { method: string; path: string; contentType?: string; bodyBytes: number; body?: string };
  /** The expected status range: 2xx-3xx, 4xx or 2xx-4xx. */
  expected: string;
  status: number | null;
  verdict: Verdict;
  durationMs?: number;
  /** Why a probe was skipped, or the connection error of a `no_response`. */
  reason?: string;
  /** The start of the answer, for everything but a pass. */
  response?: { contentType: string; excerpt: string };
  responseCheck?: ResponseCheck;
  /** Self-test: what the in-process server logged while failing this request. */
  serverLog?: string[];
}

export interface ConformanceReport {
  tool: 'mock';
  version: string;
  generatedAt: string;
  target: string;
  /** The HTTP version the probes spoke (--conformance-http2: 2). */
  httpVersion: '1.1' | '2';
  selfTest: boolean;
  specs: string[];
  summary: Summary;
  probes: ProbeResult[];
  /** Server-side violation entries (deduplicated unless MOCK_CONFORMANCE_BUFFER_UNIQUE=false). */
  violations: { unique: boolean; entries: ViolationEntry[] };
  responseChecks?: ResponseSummary;
  /** Self-test only: warnings of the build. */
  buildWarnings?: string[];
}

export interface Summary {
  operations: number;
  probes: number;
  durationMs: number;
  verdicts: Record<Verdict, number>;
  /** category -> verdict -> count. */
  categories: Record<string, Partial<Record<Verdict, number>>>;
  definiteIssues: number;
  /** Definite issues, positives without any answer, response mismatches and undetected injected violations: what makes the exit code 1. */
  findings: number;
}

export interface ResponseSummary {
  checked: number;
  mismatches: number;
  injected?: { attempted: number; detected: number; undetected: number; notInjectable: number };
}

export const EXCERPT = 300;

export function excerpt(text: string, max = EXCERPT): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

export function summarise(probes: ProbeResult[], operations: number, durationMs: number, responses: ResponseSummary | undefined): Summary {
  const verdicts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  const categories: Summary['categories'] = {};
  for (const p of probes) {
    verdicts[p.verdict]++;
    const row = (categories[p.category] ??= {});
    row[p.verdict] = (row[p.verdict] ?? 0) + 1;
  }
  const order = ['positive', 'request-body', 'parameters', 'security', 'owasp'];
  const rank = (c: string) => (order.includes(c) ? order.indexOf(c) : order.length);
  const sorted = Object.fromEntries(Object.entries(categories).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)));
  const definiteIssues = verdicts.server_error + verdicts.valid_request_rejected;
  const silentPositives = probes.filter((p) => p.category === 'positive' && p.verdict === 'no_response').length;
  const findings = definiteIssues + silentPositives + (responses?.mismatches ?? 0) + (responses?.injected?.undetected ?? 0);
  return { operations, probes: probes.length, durationMs, verdicts, categories: sorted, definiteIssues, findings };
}

/** Where the three files go (`--output`): a directory gets fixed names, anything else is a prefix. */
export function reportPaths(output: string, cwd: string): { json: string; html: string; issues: string } {
  const resolved = path.resolve(cwd, output);
  const isDir = /[\\/]$/.test(output) || statSync(resolved, { throwIfNoEntry: false })?.isDirectory() === true;
  if (isDir) {
    return {
      json: path.join(resolved, 'conformance-report.json'),
      html: path.join(resolved, 'conformance-report.html'),
      issues: path.join(resolved, 'conformance-issues.json'),
    };
  }
  const prefix = resolved.replace(/\.(json|html)$/i, '');
  return { json: `${prefix}.json`, html: `${prefix}.html`, issues: `${prefix}.issues.json` };
}

/** Without --output the reports go to a fresh temporary directory (the summary says where), not into the project. */
export const temporaryReportDir = (): string => `${mkdtempSync(path.join(os.tmpdir(), 'mock-conformance-'))}${path.sep}`;

/** The definite-issues file: only `valid_request_rejected` and `server_error`. */
export function issuesFile(report: ConformanceReport): unknown {
  const issues = report.probes.filter((p) => p.verdict === 'valid_request_rejected' || p.verdict === 'server_error');
  return {
    tool: report.tool,
    version: report.version,
    generatedAt: report.generatedAt,
    target: report.target,
    specs: report.specs,
    count: issues.length,
    issues: issues.map((p) => ({
      verdict: p.verdict,
      label: p.label,
      operation: p.operation,
      request: p.request,
      expected: p.expected,
      status: p.status,
      response: p.response,
      ...(p.serverLog ? { serverLog: p.serverLog } : {}),
    })),
  };
}
