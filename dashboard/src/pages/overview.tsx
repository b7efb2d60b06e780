import { Fragment } from 'preact';
import { Chart } from '../components/chart';
import { DataTable } from '../components/data-table';
import { fmtInt, fmtMs, fmtPct, fmtValue } from '../format';
import { latest } from '../live';
import { useObservable } from '../observable';
import { useResource } from '../resource';
import type { DashboardData } from '../types';

/** What GET /__mock/metrics adds for each protocol server that runs. */
const PROTOCOLS: Array<[string, string]> = [
  ['websocket_by_path', 'WebSocket paths'],
  ['graphql_by_operation', 'GraphQL operations'],
  ['grpc_by_method', 'gRPC methods'],
];

interface Health {
  status: string;
  services: Record<string, string>;
  issues: string[];
}

/** System, servers of every protocol (and what the WebSocket, GraphQL and gRPC ones report) and health, with the live rate, error rate and latency charts. */
export function OverviewPage() {
  const dash = useResource<DashboardData>('dashboard', 5000);
  const health = useResource<Health>('health', 5000);
  const metrics = useResource<Record<string, unknown>>('metrics', 5000);
  const protocols = PROTOCOLS.filter(([key]) => metrics.data?.[key] !== undefined);
  const m = useObservable(latest);
  const system = dash.data?.system ?? {};
  return (
    <div>
      <h2>Overview</h2>
      {dash.error !== undefined && <p class="error">{dash.error}</p>}
      <div class="tiles">
        <Tile label="Requests/s" value={fmtInt(m?.requests_per_second)} />
        <Tile label="Error rate" value={fmtPct(m?.error_rate)} />
        <Tile label="p50 / p95 / p99 ms" value={`${fmtMs(m?.response_time_ms.p50)} / ${fmtMs(m?.response_time_ms.p95)} / ${fmtMs(m?.response_time_ms.p99)}`} />
        <Tile label="Total requests" value={fmtInt(m?.total_requests)} />
        <Tile label="Connections" value={fmtInt(m?.active_connections)} />
        <Tile label="Health" value={health.data?.status ?? '…'} />
      </div>
      <div class="charts">
        <Chart title="Request rate" columns={[1]} labels={['req/s']} colors={['#3b82f6']} unit="" />
        <Chart title="Error rate" columns={[2]} labels={['errors %']} colors={['#ef4444']} unit="%" />
        <Chart title="Latency" columns={[3, 4, 5]} labels={['p50', 'p95', 'p99']} colors={['#22c55e', '#f59e0b', '#ef4444']} unit="ms" />
      </div>
      <div class="cols">
        <section class="card">
          <h3>System</h3>
          <dl>
            {Object.entries(system).map(([k, v]) => (
              <Fragment key={k}>
                <dt>{k.replaceAll('_', ' ')}</dt>
                <dd>{fmtValue(v)}</dd>
              </Fragment>
            ))}
          </dl>
          {(health.data?.issues.length ?? 0) > 0 && <p class="error">{health.data?.issues.join('; ')}</p>}
        </section>
        <section class="card">
          <h3>Servers</h3>
          <table>
            <thead>
              <tr>
                <th>Protocol</th>
                <th>Address</th>
                <th>Served by</th>
                <th>Running</th>
              </tr>
            </thead>
            <tbody>
              {(dash.data?.servers ?? []).map((s) => (
                <tr key={String(s.server_type)}>
                  <td>{String(s.server_type)}</td>
                  <td>{String(s.address)}</td>
                  <td>{s.library === undefined ? '–' : `${String(s.library)}, HTTP/${String(s.http_version)}`}</td>
                  <td>{s.running === true ? 'yes' : 'no'}</td>
                </tr>
              ))}
              {Object.entries(health.data?.services ?? {})
                .filter(([, status]) => status === 'disabled')
                .map(([name]) => (
                  <tr key={name} class="muted">
                    <td>{name}</td>
                    <td>–</td>
                    <td>–</td>
                    <td>disabled</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      </div>
      {protocols.map(([key, title]) => (
        <section class="card" key={key}>
          <h3>{title}</h3>
          <DataTable data={metrics.data?.[key]} />
        </section>
      ))}
    </div>
  );
}

function Tile({ label, value }: { label: string; value: string }) {
  return (
    <div class="tile">
      <div class="tile-value">{value}</div>
      <div class="tile-label">{label}</div>
    </div>
  );
}
