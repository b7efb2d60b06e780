import type { ReactElement } from 'react';
import { clock, fit, fitRight, ms, num, windowStart } from '../format.js';
import type { Coverage, Loaded, RouteRow } from '../types.js';
import { column, line } from './line.js';

export interface RoutesProps {
  loaded: Loaded<{ rows: RouteRow[]; coverage: Coverage }>;
  selected: number;
  width: number;
  height: number;
}

/** The dashboard's route rows (GET /__mock/dashboard) with the answers each got (GET /__mock/coverage). */
export function RoutesView({ loaded, selected, width, height }: RoutesProps): ReactElement {
  const lines: ReactElement[] = [];
  const data = loaded.data;
  if (loaded.error !== undefined) lines.push(line('error', [{ text: ` ${loaded.error}`, color: 'red' }], width));
  if (data === undefined) {
    if (loaded.error === undefined) lines.push(line('loading', [{ text: ' loading routes…', dim: true }], width));
    return column('routes', lines, width, height);
  }
  const { rows, coverage } = data;
  lines.push(
    line('summary', [` coverage ${num(coverage.coverage_percentage, 2)}% · ${coverage.covered_routes} of ${coverage.total_routes} paths requested · ${rows.length} routes`], width),
  );
  const codesWidth = Math.min(24, Math.max(6, Math.floor(width / 5)));
  const pathWidth = Math.max(8, width - 8 - 6 - 7 - 6 - 9 - 4 - codesWidth - 6);
  lines.push(
    line('head', [{ text: ` ${'method'.padEnd(8)}${fit('path', pathWidth)} ${fitRight('prio', 5)} ${fitRight('reqs', 6)} ${fitRight('errs', 5)} ${fitRight('latency', 8)} ${'fix'.padEnd(4)}${fit('answers', codesWidth)}`, bold: true }], width),
  );
  // below the rows, the selected route's request chain and its last request
  const room = Math.max(0, height - lines.length - 2);
  const first = windowStart(rows.length, selected, room);
  rows.slice(first, first + room).forEach((r, n) => {
    const codes = Object.entries(r.response_codes ?? coverage.routes[r.path]?.methods[r.method]?.response_codes ?? {})
      .map(([code, count]) => `${code}×${count}`)
      .join(' ');
    const chosen = first + n === selected;
    const text = `${chosen ? '›' : ' '}${fit(r.method, 7)} ${fit(r.path, pathWidth)} ${fitRight(String(r.priority), 5)} ${fitRight(String(r.request_count), 6)} ${fitRight(String(r.error_count), 5)} ${fitRight(r.request_count > 0 ? ms(r.latency_ms) : '–', 8)} ${(r.has_fixtures ? 'yes' : '').padEnd(4)}${fit(codes, codesWidth)}`;
    lines.push(line(`${r.method} ${r.path}`, [{ text, inverse: chosen, color: r.error_count > 0 ? 'yellow' : undefined }], width));
  });
  const chosen = rows[Math.min(selected, rows.length - 1)];
  if (chosen !== undefined && height - lines.length >= 2) {
    while (lines.length < height - 2) lines.push(line(`fill${lines.length}`, [], width));
    lines.push(line('rule', [{ text: '─'.repeat(width), dim: true }], width));
    const stages = chosen.stages === undefined ? '' : ` · stages: ${chosen.stages.length === 0 ? 'none' : chosen.stages.join(' → ')}`;
    lines.push(line('detail', [{ text: ` ${chosen.method} ${chosen.path}`, bold: true }, `${stages} · last request ${clock(chosen.last_request)}`], width));
  }
  return column('routes', lines, width, height);
}
