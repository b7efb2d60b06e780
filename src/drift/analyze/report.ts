import type { AnalysisReport, Severity } from '../../../runtime/index.js';

export type ReportFormat = 'text' | 'json' | 'markdown';

const RANK: Readonly<Record<Severity, number>> = { high: 0, medium: 1, low: 2 };

/** --fail-on: whether a mismatch of that severity or worse was found. */
export const failsOn = (report: AnalysisReport, threshold: Severity): boolean => (Object.keys(report.by_severity) as Severity[]).some((s) => report.by_severity[s] > 0 && RANK[s] <= RANK[threshold]);

function summary(report: AnalysisReport): string {
  const { captures, matched, clean, mismatches, by_severity: s } = report;
  const head = `${captures} capture${captures === 1 ? '' : 's'}, ${matched} matched an operation, ${clean} clean`;
  return mismatches === 0
    ? `${head}: no mismatches`
    : `${head}: ${mismatches} mismatch${mismatches === 1 ? '' : 'es'} (${s.high} high, ${s.medium} medium, ${s.low} low) in ${report.groups.length} group${report.groups.length === 1 ? '' : 's'}`;
}

export function formatReport(report: AnalysisReport, format: ReportFormat, specs: readonly string[], source: string): string {
  if (format === 'json') return `${JSON.stringify({ specs, request_path: source, ...report }, null, 2)}\n`;
  if (format === 'markdown') return markdown(report, source);
  const lines = report.groups.map((g, i) => {
    const r = report.recommendations[i];
    const where = `${g.location}${g.field === '' ? '' : ` ${g.field}`}`;
    const fix = `\n        fix (confidence ${r.confidence}${r.likely ? ', likely' : ''}): ${r.suggested_fix}`;
    const explained = g.explanation === undefined ? '' : `\n        ${g.explanation}`;
    return `${String(i + 1).padStart(3)}. ${g.severity.padEnd(6)} ${g.type}  ${g.operation}  ${where}  (${g.count}/${g.observations})\n        ${g.message}${fix}${explained}`;
  });
  const dropped = report.groups_dropped > 0 ? [`(${report.groups_dropped} further mismatches fell in groups past the first ${report.groups.length}; they are counted above)`] : [];
  return `${[`${source}: ${summary(report)}`, ...lines, ...dropped].join('\n')}\n`;
}

/** Markdown for a pull-request comment: table cells escape pipes and keep to one line. */
function markdown(report: AnalysisReport, source: string): string {
  const cell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;
  const head = [`## Contract drift: ${cell(source)}`, '', `${summary(report)}.`];
  if (report.groups.length === 0) return `${head.join('\n')}\n`;
  const rows = report.groups.map((g, i) => {
    const r = report.recommendations[i];
    return `| ${g.severity} | ${code(g.type)} | ${cell(code(g.operation))} | ${cell(code(`${g.location}${g.field}`))} | ${g.count}/${g.observations} | ${cell(g.message)} | ${r.confidence} ${cell(r.suggested_fix)} |`;
  });
  return `${[...head, '', '| Severity | Kind | Operation | Where | Seen | Mismatch | Confidence, fix |', '| --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n')}\n`;
}
