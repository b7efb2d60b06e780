import { VERDICTS, type Verdict } from './probe.js';
import type { ConformanceReport, ProbeResult } from './report.js';

/** Text and attribute values into HTML. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const VERDICT_TITLE: Record<Verdict, string> = {
  pass: 'Pass',
  server_error: 'Server error',
  valid_request_rejected: 'Valid request rejected',
  missed_negative: 'Missed negative',
  unexpected_status: 'Unexpected status',
  no_response: 'No response',
  skipped: 'Skipped',
};

/** How many definite issues the page lists (all of them are in the JSON files). */
const ISSUE_ROWS = 1000;
const VIOLATION_ROWS = 200;

/**
 * A standalone page (no scripts, no external resources): the summary per category and verdict,
 * the definite issues, then the missed negatives capped at `missedCap` rows (0: no table).
 */
export function renderHtml(report: ConformanceReport, missedCap: number): string {
  const s = report.summary;
  const used = VERDICTS.filter((v) => s.verdicts[v] > 0 || v === 'pass' || v === 'server_error' || v === 'valid_request_rejected' || v === 'missed_negative');
  const categories = Object.keys(s.categories);
  const cards = used
    .map((v) => `<div class="card ${v}" data-verdict="${v}"><span class="count">${s.verdicts[v]}</span><span class="name">${VERDICT_TITLE[v]}</span></div>`)
    .join('');
  const summaryRows = categories
    .map((c) => {
      const row = s.categories[c];
      const total = Object.values(row).reduce((a, b) => a + (b ?? 0), 0);
      return `<tr data-category="${escapeHtml(c)}"><th scope="row">${escapeHtml(c)}</th>${used.map((v) => `<td class="${row[v] ? v : 'zero'}">${row[v] ?? 0}</td>`).join('')}<td>${total}</td></tr>`;
    })
    .join('\n');

  const issues = report.probes.filter((p) => p.verdict === 'server_error' || p.verdict === 'valid_request_rejected');
  const missed = report.probes.filter((p) => p.verdict === 'missed_negative');
  const shownMissed = missed.slice(0, Math.max(0, missedCap));
  const entries = report.violations.entries;

  const parts: string[] = [];
  parts.push(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report: ${escapeHtml(report.specs.join(', '))}</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #1d2430; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; font-size: 1.2rem; border-bottom: 1px solid #d8dde6; padding-bottom: .3rem; }
.meta { color: #5a6475; margin: 0 0 1rem; } code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.cards { display: flex; flex-wrap: wrap; gap: .6rem; margin: 1rem 0; }
.card { border: 1px solid #d8dde6; border-radius: 8px; padding: .6rem 1rem; min-width: 8rem; background: #f7f9fc; }
.card .count { display: block; font-size: 1.6rem; font-weight: 600; } .card .name { color: #5a6475; }
.card.server_error, .card.valid_request_rejected { border-color: #e0a3a3; background: #fdf1f1; }
.card.missed_negative { border-color: #e6cf8f; background: #fdf8ea; } .card.pass { border-color: #9fd3ae; background: #eff9f2; }
table { border-collapse: collapse; width: 100%; margin: .6rem 0; } caption { text-align: left; color: #5a6475; padding: .3rem 0; }
th, td { border: 1px solid #d8dde6; padding: .35rem .5rem; text-align: left; vertical-align: top; }
thead th { background: #eef1f6; } td.zero { color: #a0a8b5; }
td.server_error, td.valid_request_rejected { background: #fdf1f1; font-weight: 600; } td.missed_negative { background: #fdf8ea; }
.verdict { font-weight: 600; } .ok { color: #1f7a3a; } .bad { color: #b42323; }
</style>
</head>
<body>
<h1>Conformance report</h1>
<p class="meta">${escapeHtml(report.specs.join(', '))} against <code>${escapeHtml(report.target)}</code>${report.httpVersion === '2' ? ' over HTTP/2' : ''}${report.selfTest ? ' (self-test: the description served in-process by <code>mock serve</code> in enforce mode)' : ''}<br>
${s.operations} operation(s), ${s.probes} probe(s) in ${(s.durationMs / 1000).toFixed(1)} s · ${escapeHtml(report.generatedAt)} · mock ${escapeHtml(report.version)}</p>
<section id="summary">
<h2>Summary</h2>
<p class="${s.findings === 0 ? 'ok' : 'bad'}" id="result">${s.findings === 0 ? 'No findings' : `${s.findings} finding(s)`}: ${s.verdicts.server_error} server error(s), ${s.verdicts.valid_request_rejected} valid request(s) rejected, ${s.verdicts.missed_negative} missed negative(s).</p>
<div class="cards">${cards}</div>
<table id="summary-table">
<caption>Probes per category and verdict</caption>
<thead><tr><th scope="col">Category</th>${used.map((v) => `<th scope="col">${VERDICT_TITLE[v]}</th>`).join('')}<th scope="col">Total</th></tr></thead>
<tbody>
${summaryRows}
</tbody>
</table>
</section>`);

  parts.push(`<section id="definite-issues">
<h2>Definite issues (${issues.length})</h2>
${
  issues.length === 0
    ? '<p class="ok">No server errors and no valid request rejected.</p>'
    : table('definite-issues-table', issues.slice(0, ISSUE_ROWS), issues.length > ISSUE_ROWS ? `First ${ISSUE_ROWS} of ${issues.length}; all are in the issues file.` : undefined, true)
}
</section>`);

  parts.push(`<section id="missed-negatives">
<h2>Missed negatives (${missed.length})</h2>
${
  missedCap <= 0
    ? `<p>Table left out (--report-missed-cap 0); the ${missed.length} missed negative(s) are in the JSON report.</p>`
    : missed.length === 0
      ? '<p class="ok">Every negative probe was rejected.</p>'
      : table('missed-negatives-table', shownMissed, `Showing ${shownMissed.length} of ${missed.length}${missed.length > shownMissed.length ? ` (--report-missed-cap ${missedCap}); all are in the JSON report` : ''}.`, false)
}
</section>`);

  parts.push(`<section id="violations">
<h2>Server-side violation entries (${entries.length})</h2>
${
  entries.length === 0
    ? '<p>The server named no violation locations in its 4xx answers.</p>'
    : `<table id="violations-table"><caption>${entries.length > VIOLATION_ROWS ? `First ${VIOLATION_ROWS} of ${entries.length}. ` : ''}${report.violations.unique ? 'Identical entries merged (MOCK_CONFORMANCE_BUFFER_UNIQUE).' : 'Not merged (MOCK_CONFORMANCE_BUFFER_UNIQUE=false).'}</caption>
<thead><tr><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Category</th><th scope="col">Reason</th><th scope="col">Occurrences</th></tr></thead>
<tbody>
${entries
  .slice(0, VIOLATION_ROWS)
  .map((e) => `<tr><td>${escapeHtml(e.method)}</td><td><code>${escapeHtml(e.path)}</code></td><td>${escapeHtml(e.category)}</td><td>${escapeHtml(e.reason)}</td><td>${e.occurrences}</td></tr>`)
  .join('\n')}
</tbody></table>`
}
</section>`);

  if (report.responseChecks) {
    const r = report.responseChecks;
    const mismatched = report.probes.filter((p) => p.responseCheck?.mismatch !== undefined);
    parts.push(`<section id="response-checks">
<h2>Response schemas</h2>
<p>${r.checked} 2xx JSON bod${r.checked === 1 ? 'y' : 'ies'} checked, ${r.mismatches} mismatch(es).${
      r.injected
        ? ` Injected violations: ${r.injected.attempted} attempted, ${r.injected.detected} detected, ${r.injected.undetected} undetected, ${r.injected.notInjectable} schema(s) too permissive to corrupt.`
        : ''
    }</p>
${
  mismatched.length === 0
    ? ''
    : `<table id="response-mismatches-table"><thead><tr><th scope="col">Probe</th><th scope="col">Operation</th><th scope="col">Against</th><th scope="col">Mismatch</th></tr></thead><tbody>
${mismatched
  .slice(0, ISSUE_ROWS)
  .map((p) => `<tr><td><code>${escapeHtml(p.label)}</code></td><td><code>${escapeHtml(p.operation)}</code></td><td>${escapeHtml(p.responseCheck?.against)}</td><td>${escapeHtml(p.responseCheck?.mismatch)}</td></tr>`)
  .join('\n')}
</tbody></table>`
}
</section>`);
  }

  const skipped = report.probes.filter((p) => p.verdict === 'skipped');
  if (skipped.length > 0) {
    parts.push(`<section id="skipped">
<h2>Skipped (${skipped.length})</h2>
<ul>${skipped.map((p) => `<li><code>${escapeHtml(p.operation)}</code> ${escapeHtml(p.label)}: ${escapeHtml(p.reason)}</li>`).join('')}</ul>
</section>`);
  }
  parts.push('</body>\n</html>\n');
  return parts.join('\n');
}

function table(id: string, rows: ProbeResult[], caption: string | undefined, withResponse: boolean): string {
  return `<table id="${id}">${caption ? `<caption>${escapeHtml(caption)}</caption>` : ''}
<thead><tr><th scope="col">Probe</th><th scope="col">Operation</th><th scope="col">Request</th><th scope="col">Expected</th><th scope="col">Status</th>${withResponse ? '<th scope="col">Verdict</th><th scope="col">Answer</th>' : '<th scope="col">What was sent</th>'}</tr></thead>
<tbody>
${rows
  .map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.label)}</code></td><td><code>${escapeHtml(p.operation)}</code></td><td><code>${escapeHtml(`${p.request.method} ${p.request.path}`)}</code></td><td>${escapeHtml(p.expected)}</td><td>${p.status ?? '—'}</td>${
        withResponse
          ? `<td class="verdict bad">${escapeHtml(p.verdict)}</td><td><code>${escapeHtml(p.response?.excerpt ?? p.reason ?? '')}</code></td>`
          : `<td>${escapeHtml(p.note)}${p.request.body !== undefined ? `<br><code class="body">${escapeHtml(p.request.body)}</code>` : ''}</td>`
      }</tr>`,
  )
  .join('\n')}
</tbody></table>`;
}
