import { useState } from 'preact/hooks';
import { VirtualList } from '../components/virtual-list';
import { fmtInt, fmtMs } from '../format';
import { useResource } from '../resource';
import type { DashboardData } from '../types';

interface Coverage {
  coverage_percentage: number;
  routes: Record<string, { methods: Record<string, { request_count: number; response_codes: Record<string, number> }> }>;
}

const ROW = 26;

const sourceOf = (priority: number | undefined): string => (priority === undefined ? '' : priority >= 1000 ? 'runtime mock' : priority >= 100 ? 'mock.yaml' : 'description');

/** Every route: traffic, errors, latency, the statuses it answered, and the stages of the chain that run for it (as the server says). */
export function RoutesPage() {
  const dash = useResource<DashboardData>('dashboard', 3000);
  const coverage = useResource<Coverage>('coverage', 3000);
  const [filter, setFilter] = useState('');

  const rows = (dash.data?.routes ?? []).filter((r) => filter === '' || `${r.method} ${r.path}`.toLowerCase().includes(filter.toLowerCase()));
  return (
    <div class="routes-page">
      <h2>Routes</h2>
      <div class="row toolbar">
        <input placeholder="filter routes" value={filter} onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
        <span class="muted">
          {rows.length} routes; coverage {coverage.data === undefined ? '–' : `${coverage.data.coverage_percentage.toFixed(1)}%`}
        </span>
      </div>
      <div class="log-body">
        <div class="log-main">
          <div class="route-head">
            <span>method</span>
            <span>path</span>
            <span>source</span>
            <span>requests</span>
            <span>errors</span>
            <span>avg ms</span>
            <span>statuses</span>
            <span>stages</span>
          </div>
          <VirtualList
            count={rows.length}
            rowHeight={ROW}
            row={(i) => {
              const r = rows[i];
              // the route's own answers (others of its METHOD path count apart); the coverage's per endpoint from an older server
              const codes = r.response_codes ?? coverage.data?.routes[r.path]?.methods[r.method]?.response_codes ?? {};
              return (
                <div class="route-row">
                  <span>{r.method}</span>
                  <span class="path">{r.path}</span>
                  <span class="muted">{sourceOf(r.priority)}</span>
                  <span>{fmtInt(r.request_count as number)}</span>
                  <span>{fmtInt(r.error_count as number)}</span>
                  <span>{fmtMs(r.latency_ms as number | null)}</span>
                  <span>
                    {Object.entries(codes).map(([code, n]) => (
                      <span key={code} class="tag">
                        {code}×{n}
                      </span>
                    ))}
                  </span>
                  <span>
                    {(r.stages ?? []).map((s) => (
                      <span key={s} class="tag">
                        {s}
                      </span>
                    ))}
                  </span>
                </div>
              );
            }}
          />
        </div>
      </div>
    </div>
  );
}
