import { type Change, type DescriptionKind, type Severity, SEVERITY_MEANING } from './types.js';

export type ReportFormat = 'text' | 'json' | 'markdown';

export interface CompareReport {
  oldSpec: string;
  newSpec: string;
  kind: DescriptionKind;
  changes: Change[];
}

const RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** Breaking first, then possibly breaking, then safe; within a severity by location, then check. */
export const sortChanges = (changes: readonly Change[]): Change[] =>
  [...changes].sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.location.localeCompare(b.location) || a.id.localeCompare(b.id));

/** --fail-on: whether a change of that severity or worse exists. */
export const failsOn = (changes: readonly Change[], threshold: Severity): boolean => changes.some((change) => RANK[change.severity] <= RANK[threshold]);

const count = (changes: readonly Change[], severity: Severity): number => changes.filter((change) => change.severity === severity).length;

function summary(changes: readonly Change[]): string {
  if (changes.length === 0) return 'no changes';
  const parts = (['error', 'warning', 'info'] as const).map((severity) => `${count(changes, severity)} ${SEVERITY_MEANING[severity]}`);
  return `${changes.length} change${changes.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

export function formatReport(report: CompareReport, format: ReportFormat): string {
  const changes = sortChanges(report.changes);
  if (format === 'json') {
    const counts = { error: count(changes, 'error'), warning: count(changes, 'warning'), info: count(changes, 'info') };
    return `${JSON.stringify({ old_spec: report.oldSpec, new_spec: report.newSpec, kind: report.kind, summary: counts, changes }, null, 2)}\n`;
  }
  if (format === 'markdown') return markdown(report, changes);
  const lines = changes.map((change) => `${change.severity.padEnd(7)} ${change.id}  ${change.location}\n        ${change.message}`);
  return `${[`${report.oldSpec} → ${report.newSpec}: ${summary(changes)}`, ...lines].join('\n')}\n`;
}

const ICON: Readonly<Record<Severity, string>> = { error: '🔴 breaking', warning: '🟠 possibly breaking', info: '🟢 safe' };

/** Markdown for a pull-request comment: table cells escape pipes and keep to one line. */
function markdown(report: CompareReport, changes: readonly Change[]): string {
  const cell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;
  const head = [`## API changes: ${cell(report.oldSpec)} → ${cell(report.newSpec)}`, '', `${summary(changes)}.`];
  if (changes.length === 0) return `${head.join('\n')}\n`;
  const rows = changes.map((change) => `| ${ICON[change.severity]} | ${code(change.id)} | ${cell(code(change.location))} | ${cell(change.message)} |`);
  return `${[...head, '', '| Severity | Check | Where | Change |', '| --- | --- | --- | --- |', ...rows].join('\n')}\n`;
}
