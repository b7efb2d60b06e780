import type { ReactElement } from 'react';
import { routeLabel } from '../../../common/request-log-view.js';
import { clock, fit, fitRight, ms } from '../format.js';
import type { LogEntry } from '../types.js';
import { column, line, statusColor, type Segment } from './line.js';

export interface LogProps {
  /** Oldest first. */
  entries: readonly LogEntry[];
  paused: boolean;
  /** Entries that arrived since the pause. */
  pending: number;
  /** Lines scrolled up from the newest (0 follows the newest). */
  offset: number;
  width: number;
  height: number;
  /** Entries the stream left out for its rate limit. */
  skipped?: number;
  /** The `/` filter: its words, whether they are being typed, and how many entries there are before it. */
  filter?: { text: string; editing: boolean; total: number };
}

/** The live request log, newest at the bottom: time, method, path, status, time taken, what made the answer and the route. */
export function LogView({ entries, paused, pending, offset, width, height, skipped = 0, filter }: LogProps): ReactElement {
  const rows = Math.max(0, height - 1);
  const end = Math.max(0, entries.length - offset);
  const shown = entries.slice(Math.max(0, end - rows), end);
  // the path takes what the columns, the source and the route (or the state, on the header) leave, up to 60
  const pathWidth = Math.max(8, Math.min(60, width - 72));
  const following = paused ? `PAUSED, ${pending} new` : offset > 0 ? `scrolled ${offset} up` : `following (${entries.length})`;
  // past the stream's rate (1,000 a second) entries are only counted: say so, the metrics have them
  const state = skipped > 0 ? `${following} · ${skipped} skipped` : following;
  const filtering: Segment[] =
    filter === undefined || (!filter.editing && filter.text === '')
      ? []
      : filter.editing
        ? [{ text: ` /${filter.text}▏`, color: 'cyan', inverse: true }]
        : [{ text: ` filter ${filter.text} · ${entries.length} of ${filter.total}`, color: 'cyan' }];
  const lines: ReactElement[] = [
    line('head', [{ text: ` ${'time'.padEnd(9)}${'method'.padEnd(8)}${fit('path', pathWidth)} ${'status'.padEnd(7)}${fitRight('time', 8)}  `, bold: true }, { text: state, color: paused ? 'yellow' : undefined, inverse: paused }, ...filtering], width),
  ];
  if (entries.length === 0) {
    const why = filter !== undefined && filter.text !== '' && filter.total > 0 ? ' no entry matches the filter: Esc clears it' : ' no requests yet: send one to the mock and it shows up here';
    lines.push(line('empty', [{ text: why, dim: true }], width));
  }
  for (const e of shown) {
    // a gRPC call's own status (DEADLINE_EXCEEDED), not the HTTP code it maps to; a long one takes its room from the path, so the columns after it stay in line
    const status = e.grpc?.status ?? String(e.status_code);
    const pathFits = Math.max(1, pathWidth - Math.max(0, status.length - 6));
    lines.push(
      line(
        e.id,
        [
          ` ${clock(e.timestamp).padEnd(9)}${fit(e.method, 7)} ${fit(e.path, pathFits)} `,
          { text: status.padEnd(7), color: statusColor(e.status_code) },
          fitRight(ms(e.response_time_ms), 8),
          // what made the answer (example, generated, runtime_mock, fixture, proxy, chaos …), then the route, operation or method it came through
          e.route === null ? { text: '  unmatched', color: 'yellow' } : { text: `  ${fit(e.source ?? '', 12)} ${routeLabel(e)}`, dim: true },
          e.error_message ? { text: `  ${e.error === undefined ? '' : `${e.error.code}: `}${e.error_message}`, color: 'red' } : '',
        ],
        width,
      ),
    );
  }
  return column('log', lines, width, height);
}
