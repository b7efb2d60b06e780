import type { ReactElement } from 'react';
import { chart, ms, num } from '../format.js';
import type { MetricsSample } from '../types.js';
import { column, line } from './line.js';

export interface OverviewProps {
  samples: readonly MetricsSample[];
  width: number;
  height: number;
}

interface Series {
  title: string;
  values: (number | null)[];
  show: (v: number | null) => string;
  color: string;
}

/** Requests/s, errors/s and p95 latency as bar charts over the last samples (one a second), and the server's gauges. */
export function OverviewView({ samples, width, height }: OverviewProps): ReactElement {
  const series: Series[] = [
    { title: 'Requests/s', values: samples.map((s) => s.requests_per_second), show: (v) => num(v), color: 'green' },
    { title: 'Errors/s', values: samples.map((s) => s.errors_per_second), show: (v) => num(v), color: 'red' },
    { title: 'p95 latency', values: samples.map((s) => s.p95_ms), show: (v) => ms(v), color: 'cyan' },
  ];
  const spare = height - 1 - series.length;
  const gap = spare >= series.length * 3 ? 1 : 0;
  const rows = Math.max(1, Math.min(10, Math.floor((spare - gap * series.length) / series.length)));
  const chartWidth = Math.max(1, width - 2);
  const lines: ReactElement[] = [];
  for (const s of series) {
    const present = s.values.filter((v): v is number => v !== null);
    const now = s.values.at(-1) ?? null;
    const max = present.length === 0 ? null : Math.max(...present);
    lines.push(
      line(`${s.title}-head`, [{ text: ` ${s.title.padEnd(12)}`, bold: true }, `now ${s.show(now).padEnd(10)} max ${s.show(max).padEnd(10)} last ${Math.min(samples.length, chartWidth)} s`], width),
    );
    chart(s.values, chartWidth, rows).forEach((text, n) => lines.push(line(`${s.title}-${n}`, [' ', { text, color: s.color }], width)));
    if (gap) lines.push(line(`${s.title}-gap`, [], width));
  }
  const last = samples.at(-1);
  if (last === undefined) lines.push(line('gauges', [{ text: ' waiting for the first metrics sample…', dim: true }], width));
  else {
    const injected = Object.entries(last.chaos_injected)
      .filter(([, count]) => count > 0)
      .map(([kind, count]) => `${kind} ${count}`);
    lines.push(
      line(
        'gauges',
        [
          ` total ${last.total_requests}`,
          last.active_connections === null ? '' : ` · connections ${last.active_connections}`,
          last.memory_usage_mb === null ? '' : ` · memory ${num(last.memory_usage_mb)} MB`,
          last.cpu_usage_percent === null ? '' : ` · cpu ${num(last.cpu_usage_percent)}%`,
          injected.length === 0 ? '' : ` · chaos injected: ${injected.join(', ')}`,
        ],
        width,
      ),
    );
  }
  return column('overview', lines, width, height);
}
