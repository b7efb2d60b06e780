import { access, mayWrite } from '../access';
import { call } from '../api';
import { JsonEditor } from '../components/json-editor';
import { Note } from '../components/note';
import { SettingsForm, type FieldSpec } from '../components/settings-form';
import { fmtInt } from '../format';
import { latest } from '../live';
import { useObservable } from '../observable';
import { attempt, useAction, useResource } from '../resource';

interface Profile {
  name: string;
  description?: string;
  tags?: string[];
  builtin?: boolean;
}

interface ChaosStats {
  total_faults: number;
  by_type: Record<string, number>;
  circuit_breaker?: { state?: string };
  active_profile: string | null;
}

type ChaosConfig = Record<string, unknown> & { enabled: boolean; active_profile: string | null };

const BLOCKS = ['fault_injection', 'rate_limit', 'traffic_shaping', 'circuit_breaker', 'bulkhead'];
const RATE: FieldSpec[] = [
  { key: 'enabled', label: 'Enabled', kind: 'bool' },
  { key: 'requests_per_second', label: 'Requests/s', kind: 'number' },
  { key: 'burst_size', label: 'Burst', kind: 'number' },
  { key: 'per_ip', label: 'Per client', kind: 'bool' },
];
const FAULTS: FieldSpec[] = [
  { key: 'enabled', label: 'Enabled', kind: 'bool' },
  { key: 'http_errors', label: 'HTTP errors', kind: 'numbers' },
  { key: 'http_error_probability', label: 'Probability (0–1)', kind: 'number' },
];
const LATENCY: FieldSpec[] = [
  { key: 'enabled', label: 'Enabled', kind: 'bool' },
  { key: 'base_ms', label: 'Base (ms)', kind: 'number' },
  { key: 'jitter_ms', label: 'Jitter (ms)', kind: 'number' },
];

const only = (values: Record<string, unknown>, fields: FieldSpec[]): Record<string, unknown> => Object.fromEntries(fields.map((f) => [f.key, values[f.key]]));

/** Profiles to apply, the blocks to switch, latency and rate limits, and what was injected, live. */
export function ChaosPage() {
  const profiles = useResource<Profile[]>('chaos/profiles');
  const config = useResource<ChaosConfig>('chaos/config');
  const latencyConfig = useResource<{ latency: Record<string, unknown> }>('config');
  const stats = useResource<ChaosStats>('chaos/stats', 1000);
  const m = useObservable(latest);
  const user = useObservable(access);
  const disabled = !mayWrite(user, 'admin');
  const reload = (): void => (config.reload(), stats.reload(), latencyConfig.reload());
  const apply = useAction(reload);
  const toggle = useAction(reload);
  const rate = useAction(reload);
  const faults = useAction(reload);
  const latency = useAction(reload);
  const c = config.data;
  const injected = { ...(stats.data?.by_type ?? {}), ...(m?.chaos_injected ?? {}) };

  return (
    <div>
      <h2>Chaos</h2>
      {config.error !== undefined && <p class="error">{config.error}</p>}
      <div class="tiles" data-testid="chaos-counts">
        <div class="tile">
          <div class="tile-value">{c?.active_profile ?? 'none'}</div>
          <div class="tile-label">Active profile</div>
        </div>
        {Object.entries(injected).map(([kind, n]) => (
          <div class="tile" key={kind}>
            <div class="tile-value">{fmtInt(n)}</div>
            <div class="tile-label">{kind.replaceAll('_', ' ')}</div>
          </div>
        ))}
        <div class="tile">
          <div class="tile-value">{stats.data?.circuit_breaker?.state ?? '–'}</div>
          <div class="tile-label">circuit breaker</div>
        </div>
      </div>
      <section class="card">
        <h3>Switches</h3>
        <div class="row wrap">
          <label>
            <input type="checkbox" checked={c?.enabled === true} disabled={disabled} onChange={(e) => void toggle.run('PUT', 'chaos/config', { enabled: (e.currentTarget as HTMLInputElement).checked })} /> chaos (master)
          </label>
          {BLOCKS.map((block) => (
            <label key={block}>
              <input
                type="checkbox"
                name={block}
                checked={(c?.[block] as { enabled?: boolean } | undefined)?.enabled === true}
                disabled={disabled}
                onChange={(e) => void toggle.run('PUT', 'chaos/config', { [block]: { enabled: (e.currentTarget as HTMLInputElement).checked } })}
              />{' '}
              {block.replaceAll('_', ' ')}
            </label>
          ))}
          <button disabled={disabled} onClick={() => void toggle.run('POST', 'chaos/config/reset', undefined, 'Back to the settings of the start')}>
            Reset
          </button>
          <button disabled={disabled} onClick={() => void toggle.run('POST', 'chaos/stats/reset', undefined, 'Counters reset')}>
            Reset counters
          </button>
          <Note action={toggle} />
        </div>
      </section>
      <section class="card">
        <h3>Profiles</h3>
        <Note action={apply} />
        <table class="list">
          <tbody>
            {(profiles.data ?? []).map((p) => (
              <tr key={p.name} class={p.name === c?.active_profile ? 'selected' : ''}>
                <td>
                  <b>{p.name}</b>
                </td>
                <td class="grow-cell">{p.description}</td>
                <td class="muted">{p.builtin === true ? 'built-in' : 'custom'}</td>
                <td>
                  <button disabled={disabled} data-profile={p.name} onClick={() => void apply.run('POST', `chaos/profiles/${encodeURIComponent(p.name)}/apply`, undefined, `Applied ${p.name}`)}>
                    Apply
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <div class="forms">
        <SettingsForm title="Latency" fields={LATENCY} values={latencyConfig.data?.latency} disabled={disabled} action={latency} onApply={(v) => void latency.run('POST', 'config/latency', only(v, LATENCY))} />
        <SettingsForm title="Rate limit" fields={RATE} values={c?.rate_limit as Record<string, unknown> | undefined} disabled={disabled} action={rate} onApply={(v) => void rate.run('PUT', 'chaos/config', { rate_limit: only(v, RATE) })} />
        <SettingsForm title="Fault injection" fields={FAULTS} values={c?.fault_injection as Record<string, unknown> | undefined} disabled={disabled} action={faults} onApply={(v) => void faults.run('PUT', 'chaos/config/faults', only(v, FAULTS))} />
      </div>
      {c !== undefined && (
        <section class="card">
          <h3>Every block (PUT /__mock/chaos/config)</h3>
          <JsonEditor
            key={JSON.stringify(c)}
            value={Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'active_profile'))}
            disabled={disabled}
            onSave={(v) => attempt(() => call('PUT', 'chaos/config', v), reload)}
          />
        </section>
      )}
    </div>
  );
}
