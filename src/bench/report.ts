// Turns what the workers counted into the report: per target (all rounds together, optionally each
// round too) and over all targets. Latency percentiles come from the merged histograms. Streamed
// answers add their own figures (items, time to the first item, the sampled items validated here),
// and so do the other answers of mock bench (a sample of them validated here).
import { createHistogram, mergeHistograms, summarize, type Histogram, type LatencySummary } from './histogram.js';
import type { SampledAnswer, StreamResult, WorkerResult } from './protocol.js';
import * as hdr from 'hdr-histogram-js';

export interface OperationInfo {
  key: string;
  operationId?: string;
  method: string;
  path: string;
}

/** What a set of requests gave: the numbers every level of the report has. */
export interface Stats {
  /** Requests that ended: responses plus network errors. */
  requests: number;
  responses: number;
  reqPerSec: number;
  latencyMs: LatencySummary;
  statuses: Record<string, number>;
  /** Network and protocol errors by code (ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPROTO …). */
  networkErrors: Record<string, number>;
  /** Responses with a 5xx status. */
  serverErrors: number;
  /** Network errors plus 5xx responses. */
  errors: number;
  /** errors / requests (0 when nothing was sent). */
  errorRate: number;
  /** Answers of a sequential media type (SSE, JSON Lines …), when there were any. */
  stream?: StreamStats;
  /** The plain answers sampled under load and validated against the description (mock bench). */
  answerSample?: AnswerSampleStats;
}

/** The sample of plain answers of a set of requests (docs/bench.md, "Answers validated under load"). */
export interface AnswerSampleStats {
  /** Sampled answers checked: status and media type always, the body when it could be. */
  answersChecked: number;
  mismatches: number;
  /** Of the answers checked, those whose body was not: over the size cap, or not JSON. */
  bodiesNotChecked: number;
  /** The first mismatching answer of the sample: status, content type, the start of its body, and why. */
  firstMismatch?: string;
  /** Why the first body not checked was not. */
  firstBodyNotChecked?: string;
}

/** What a sampled answer of operation `operation` is found to be: a mismatch, or a fit whose body was not checked, or undefined (fits). */
export type AnswerCheck = (operation: number, answer: SampledAnswer) => { mismatch?: string; bodyUnchecked?: string } | undefined;

/** The streamed answers of a set of requests (docs/bench.md, "Streamed answers under load"). */
export interface StreamStats {
  /** Streamed answers (counted among the responses). */
  answers: number;
  /** Of those, still open when sending stopped: closed by the load generator, not in latencyMs. */
  cut: number;
  items: number;
  /** From the request to the first complete item. */
  firstItemMs: LatencySummary;
  /** Items of the validation sample checked against the item schema. */
  itemsChecked: number;
  mismatches: number;
  /** Why the first mismatching item of the sample does not fit. */
  firstMismatch?: string;
}

/** Tells why a sampled item of operation `operation` does not fit its item schema, or undefined. */
export type ItemCheck = (operation: number, status: number, contentType: string, item: string) => string | undefined;

export interface OperationReport extends Stats {
  operation: string;
  operationId?: string;
  method: string;
  path: string;
}

export interface TimelineEntry {
  second: number;
  responses: number;
  errors: number;
  active: number;
}

export interface TargetReport extends Stats {
  target: string;
  rounds: number;
  /** Seconds spent sending (summed over rounds). */
  durationSeconds: number;
  connections: number;
  interrupted: boolean;
  operations?: OperationReport[];
  timeline: TimelineEntry[];
}

interface Counts {
  responses: number;
  histogram: Histogram;
  statuses: Record<string, number>;
  networkErrors: Record<string, number>;
  stream: StreamCounts | null;
  answers: AnswerCounts | null;
}

interface AnswerCounts {
  checked: number;
  mismatches: number;
  bodiesNotChecked: number;
  firstMismatch?: string;
  firstBodyNotChecked?: string;
}

interface StreamCounts {
  answers: number;
  cut: number;
  items: number;
  firstItem: Histogram;
  checked: number;
  mismatches: number;
  firstMismatch?: string;
}

const emptyCounts = (): Counts => ({ responses: 0, histogram: createHistogram(), statuses: {}, networkErrors: {}, stream: null, answers: null });
const emptyStream = (): StreamCounts => ({ answers: 0, cut: 0, items: 0, firstItem: createHistogram(), checked: 0, mismatches: 0 });

function addStream(into: Counts, from: StreamCounts | null): void {
  if (from === null) return;
  const total = (into.stream ??= emptyStream());
  total.answers += from.answers;
  total.cut += from.cut;
  total.items += from.items;
  total.firstItem.add(from.firstItem);
  total.checked += from.checked;
  total.mismatches += from.mismatches;
  total.firstMismatch ??= from.firstMismatch;
}

/** One worker's streamed answers of operation `operation`, its item sample validated now. */
function addWorkerStream(into: Counts, operation: number, from: StreamResult, check: ItemCheck | undefined): void {
  const total = (into.stream ??= emptyStream());
  total.answers += from.answers;
  total.cut += from.cut;
  total.items += from.items;
  if (from.firstItem) total.firstItem.add(hdr.decodeFromCompressedBase64(from.firstItem));
  if (check === undefined) return;
  for (const { status, contentType, item } of from.sample) {
    total.checked++;
    const mismatch = check(operation, status, contentType, item);
    if (mismatch === undefined) continue;
    total.mismatches++;
    total.firstMismatch ??= `${status} ${contentType} item ${JSON.stringify(item.length > 80 ? `${item.slice(0, 80)}…` : item)}: ${mismatch}`;
  }
}

function addAnswers(into: Counts, from: AnswerCounts | null): void {
  if (from === null) return;
  const total = (into.answers ??= { checked: 0, mismatches: 0, bodiesNotChecked: 0 });
  total.checked += from.checked;
  total.mismatches += from.mismatches;
  total.bodiesNotChecked += from.bodiesNotChecked;
  total.firstMismatch ??= from.firstMismatch;
  total.firstBodyNotChecked ??= from.firstBodyNotChecked;
}

/** One worker's sampled answers of operation `operation`, validated now. */
function addWorkerAnswers(into: Counts, operation: number, sample: SampledAnswer[], check: AnswerCheck): void {
  const total = (into.answers ??= { checked: 0, mismatches: 0, bodiesNotChecked: 0 });
  for (const answer of sample) {
    total.checked++;
    const found = check(operation, answer);
    if (found?.mismatch !== undefined) {
      total.mismatches++;
      total.firstMismatch ??= `${answerText(answer)}: ${found.mismatch}`;
    } else if (found?.bodyUnchecked !== undefined) {
      total.bodiesNotChecked++;
      total.firstBodyNotChecked ??= found.bodyUnchecked;
    }
  }
}

/** `200 application/json {"id":…`: what a sampled answer was, in short. */
function answerText(answer: SampledAnswer): string {
  const body = answer.body === null ? `(${answer.unkept ?? 'body not kept'})` : answer.body === '' ? '(no body)' : JSON.stringify(answer.body.length > 80 ? `${answer.body.slice(0, 80)}…` : answer.body);
  return `${answer.status} ${answer.contentType || '(no content type)'} ${body}`;
}

function answerStats(counts: AnswerCounts): AnswerSampleStats {
  return {
    answersChecked: counts.checked,
    mismatches: counts.mismatches,
    bodiesNotChecked: counts.bodiesNotChecked,
    ...(counts.firstMismatch === undefined ? {} : { firstMismatch: counts.firstMismatch }),
    ...(counts.firstBodyNotChecked === undefined ? {} : { firstBodyNotChecked: counts.firstBodyNotChecked }),
  };
}

function streamStats(counts: StreamCounts): StreamStats {
  return {
    answers: counts.answers,
    cut: counts.cut,
    items: counts.items,
    firstItemMs: summarize(counts.firstItem),
    itemsChecked: counts.checked,
    mismatches: counts.mismatches,
    ...(counts.firstMismatch === undefined ? {} : { firstMismatch: counts.firstMismatch }),
  };
}

function addInto(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
}

function stats(counts: Counts, seconds: number): Stats {
  const network = Object.values(counts.networkErrors).reduce((a, b) => a + b, 0);
  const serverErrors = Object.entries(counts.statuses).reduce((sum, [status, n]) => (Number(status) >= 500 ? sum + n : sum), 0);
  const requests = counts.responses + network;
  const errors = network + serverErrors;
  return {
    requests,
    responses: counts.responses,
    reqPerSec: seconds > 0 ? Math.round((counts.responses / seconds) * 10) / 10 : 0,
    latencyMs: summarize(counts.histogram),
    statuses: sortKeys(counts.statuses),
    networkErrors: sortKeys(counts.networkErrors),
    serverErrors,
    errors,
    errorRate: requests > 0 ? Math.round((errors / requests) * 1e6) / 1e6 : 0,
    ...(counts.stream === null ? {} : { stream: streamStats(counts.stream) }),
    ...(counts.answers === null ? {} : { answerSample: answerStats(counts.answers) }),
  };
}

const sortKeys = (o: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/** Everything one target did, over the rounds added so far. */
export class TargetTotals {
  private readonly operations: Counts[];
  private durationMs = 0;
  private rounds = 0;
  private connections = 0;
  private interrupted = false;
  private readonly timeline: TimelineEntry[] = [];

  constructor(
    readonly target: string,
    private readonly infos: OperationInfo[],
    private readonly checkItem?: ItemCheck,
    private readonly checkAnswer?: AnswerCheck,
  ) {
    this.operations = infos.map(emptyCounts);
  }

  /** One round: the results of every worker that ran this target. */
  add(results: WorkerResult[]): void {
    this.rounds++;
    this.durationMs += Math.max(0, ...results.map((r) => r.elapsedMs));
    const offset = this.timeline.length;
    for (const result of results) {
      this.connections += result.connections;
      this.interrupted ||= result.interrupted;
      result.operations.forEach((op, i) => {
        const counts = this.operations[i];
        counts.responses += op.responses;
        if (op.histogram) counts.histogram.add(hdr.decodeFromCompressedBase64(op.histogram));
        addInto(counts.statuses, op.statuses);
        addInto(counts.networkErrors, op.errors);
        if (op.stream) addWorkerStream(counts, i, op.stream, this.checkItem);
        if (op.answers && this.checkAnswer) addWorkerAnswers(counts, i, op.answers, this.checkAnswer);
      });
      result.timeline.responses.forEach((n, s) => {
        const entry = (this.timeline[offset + s] ??= { second: offset + s, responses: 0, errors: 0, active: 0 });
        entry.responses += n;
        entry.errors += result.timeline.errors[s] ?? 0;
        entry.active += result.timeline.active[s] ?? 0;
      });
    }
  }

  /** The target over all its operations. */
  counts(): Counts {
    const total = emptyCounts();
    total.histogram = mergeHistograms(this.operations.map((op) => op.histogram));
    for (const op of this.operations) {
      total.responses += op.responses;
      addInto(total.statuses, op.statuses);
      addInto(total.networkErrors, op.networkErrors);
      addStream(total, op.stream);
      addAnswers(total, op.answers);
    }
    return total;
  }

  get seconds(): number {
    return this.durationMs / 1000;
  }

  report(withOperations: boolean): TargetReport {
    const seconds = this.seconds;
    const report: TargetReport = {
      target: this.target,
      rounds: this.rounds,
      durationSeconds: Math.round(seconds * 1000) / 1000,
      ...stats(this.counts(), seconds),
      connections: this.connections,
      interrupted: this.interrupted,
      timeline: this.timeline.filter(Boolean),
    };
    if (withOperations) {
      report.operations = this.operations.map((counts, i) => ({
        operation: this.infos[i].key,
        ...(this.infos[i].operationId ? { operationId: this.infos[i].operationId } : {}),
        method: this.infos[i].method,
        path: this.infos[i].path,
        ...stats(counts, seconds),
      }));
    }
    return report;
  }
}

/** All targets together (requests per second: their rates added, as they ran side by side). */
export function summaryOf(totals: TargetTotals[]): Stats {
  const all = emptyCounts();
  const histograms: Histogram[] = [];
  let rate = 0;
  for (const target of totals) {
    const counts = target.counts();
    histograms.push(counts.histogram);
    all.responses += counts.responses;
    addInto(all.statuses, counts.statuses);
    addInto(all.networkErrors, counts.networkErrors);
    addStream(all, counts.stream);
    addAnswers(all, counts.answers);
    rate += target.seconds > 0 ? counts.responses / target.seconds : 0;
  }
  all.histogram = mergeHistograms(histograms);
  const summary = stats(all, 1);
  summary.reqPerSec = Math.round(rate * 10) / 10;
  return summary;
}

// ---- text for people -------------------------------------------------------------------------

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const msText = (n: number): string => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const pct = (n: number): string => `${(n * 100).toFixed(2)}%`;

export function statsLines(s: Stats, indent = '  '): string[] {
  const l = s.latencyMs;
  const statuses = Object.entries(s.statuses).map(([status, n]) => `${status}: ${int(n)}`).join('  ') || 'none';
  const lines = [
    `${indent}requests   ${int(s.requests)} (${int(s.reqPerSec)} req/s)   errors ${int(s.errors)} (${pct(s.errorRate)}: ${int(s.serverErrors)} 5xx, ${int(s.requests - s.responses)} network)`,
    `${indent}latency    p50 ${msText(l.p50)} ms   p95 ${msText(l.p95)} ms   p99 ${msText(l.p99)} ms   max ${msText(l.max)} ms`,
    `${indent}statuses   ${statuses}`,
  ];
  const network = Object.entries(s.networkErrors);
  if (network.length > 0) lines.push(`${indent}network    ${network.map(([code, n]) => `${code}: ${int(n)}`).join('  ')}`);
  if (s.stream !== undefined) lines.push(...streamLines(s.stream, indent));
  if (s.answerSample !== undefined) lines.push(`${indent}answers    ${answerVerdict(s.answerSample)}`);
  return lines;
}

/** `N sampled answers fit the description` or `M of N sampled answers do NOT fit: <the first>`, and the bodies not checked. */
function answerVerdict(a: AnswerSampleStats): string {
  const verdict =
    a.answersChecked === 0
      ? 'no answer sampled'
      : a.mismatches === 0
        ? `${int(a.answersChecked)} sampled answers fit the description`
        : `${int(a.mismatches)} of ${int(a.answersChecked)} sampled answers do NOT fit: ${a.firstMismatch}`;
  return a.bodiesNotChecked === 0 ? verdict : `${verdict} (${int(a.bodiesNotChecked)} bodies not checked: ${a.firstBodyNotChecked})`;
}

/** The sampled answers of each operation: how many were checked, how many do not fit and why the first does not. */
export function answerTable(operations: OperationReport[], indent = '  '): string[] {
  const sampled = operations.filter((op) => op.answerSample !== undefined);
  if (sampled.length === 0) return [];
  const header = ['sampled answers', 'checked', 'mismatches', 'bodies not checked'];
  const rows = sampled.map((op) => {
    const a = op.answerSample as AnswerSampleStats;
    return [operationName(op), int(a.answersChecked), int(a.mismatches), int(a.bodiesNotChecked)];
  });
  const mismatches = sampled.filter((op) => op.answerSample?.firstMismatch !== undefined).map((op) => `${indent}${op.operation}: first mismatch: ${op.answerSample?.firstMismatch}`);
  return [...alignTable([header, ...rows], indent), ...mismatches];
}

/** A streamed answers' block: counts, time to the first item beside the latency, the sample's verdict. */
function streamLines(st: StreamStats, indent: string): string[] {
  const f = st.firstItemMs;
  const verdict = st.itemsChecked === 0 ? 'no item checked' : st.mismatches === 0 ? `${int(st.itemsChecked)} sampled items fit the item schema` : `${int(st.mismatches)} of ${int(st.itemsChecked)} sampled items do NOT fit`;
  return [
    `${indent}streams    ${int(st.answers)} answers (${int(st.cut)} still open at the end, cut)   ${int(st.items)} items   ${verdict}`,
    `${indent}1st item   p50 ${msText(f.p50)} ms   p90 ${msText(f.p90)} ms   p99 ${msText(f.p99)} ms   max ${msText(f.max)} ms`,
    ...(st.firstMismatch === undefined ? [] : [`${indent}mismatch   ${st.firstMismatch}`]),
  ];
}

/** The streamed operations: answers, items, time to the first item, validation of the sampled items. */
export function streamTable(operations: OperationReport[], indent = '  '): string[] {
  const streamed = operations.filter((op) => op.stream !== undefined);
  if (streamed.length === 0) return [];
  const header = ['streamed operation', 'answers', 'cut', 'items', '1st item p50 ms', 'p90 ms', 'p99 ms', 'checked', 'mismatches'];
  const rows = streamed.map((op) => {
    const st = op.stream as StreamStats;
    return [
      operationName(op),
      int(st.answers),
      int(st.cut),
      int(st.items),
      msText(st.firstItemMs.p50),
      msText(st.firstItemMs.p90),
      msText(st.firstItemMs.p99),
      int(st.itemsChecked),
      int(st.mismatches),
    ];
  });
  const mismatches = streamed.filter((op) => op.stream?.firstMismatch !== undefined).map((op) => `${indent}${op.operation}: first mismatch: ${op.stream?.firstMismatch}`);
  return [...alignTable([header, ...rows], indent), ...mismatches];
}

const operationName = (op: OperationReport): string => (op.operationId ? `${op.operationId} (${op.operation})` : op.operation);

/** Columns padded to their widest cell: text columns (the first, and `leftLast`'s last) to the left, figures to the right. */
function alignTable(table: string[][], indent: string, leftLast = false): string[] {
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const left = (i: number, row: string[]): boolean => i === 0 || (leftLast && i === row.length - 1);
  return table.map((row) => indent + row.map((cell, i) => (left(i, row) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd());
}

export function operationTable(operations: OperationReport[], indent = '  '): string[] {
  const header = ['operation', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'statuses'];
  const rows = operations.map((op) => [
    operationName(op),
    int(op.requests),
    int(op.reqPerSec),
    msText(op.latencyMs.p50),
    msText(op.latencyMs.p95),
    msText(op.latencyMs.p99),
    int(op.errors),
    Object.entries(op.statuses).map(([status, n]) => `${status}×${int(n)}`).join(' ') || '-',
  ]);
  return alignTable([header, ...rows], indent, true);
}
