import { access, mayWrite } from '../access';
import { SettingsForm, type FieldSpec } from '../components/settings-form';
import { useObservable } from '../observable';
import { useAction, useResource } from '../resource';

interface RuntimeConfig {
  latency: Record<string, unknown>;
  faults: Record<string, unknown>;
  proxy: Record<string, unknown>;
  validation: Record<string, unknown>;
}

const VALIDATION: FieldSpec[] = [
  { key: 'mode', label: 'Mode', kind: 'select', options: ['off', 'warn', 'enforce'] },
  { key: 'aggregate_errors', label: 'Report every error', kind: 'bool' },
  { key: 'validate_responses', label: 'Check responses (warn)', kind: 'bool' },
  { key: 'status_code', label: 'Status of refusals', kind: 'number' },
  { key: 'error_body', label: 'Error body', kind: 'select', options: ['documented', 'problem'] },
];
const LATENCY: FieldSpec[] = [
  { key: 'enabled', label: 'Enabled', kind: 'bool' },
  { key: 'base_ms', label: 'Base (ms)', kind: 'number' },
  { key: 'jitter_ms', label: 'Jitter (ms)', kind: 'number' },
];
const FAULTS: FieldSpec[] = [
  { key: 'enabled', label: 'Enabled', kind: 'bool' },
  { key: 'failure_rate', label: 'Failure rate (0–1)', kind: 'number' },
  { key: 'status_codes', label: 'Statuses', kind: 'numbers' },
];
const PROXY: FieldSpec[] = [
  { key: 'enabled', label: 'Enabled', kind: 'bool' },
  { key: 'upstream_url', label: 'Upstream URL', kind: 'text' },
  { key: 'timeout_seconds', label: 'Timeout (s)', kind: 'number' },
];

/** Only the fields a form shows: the endpoints refuse unknown ones. */
const pick = (values: Record<string, unknown>, fields: FieldSpec[]): Record<string, unknown> => Object.fromEntries(fields.map((f) => [f.key, values[f.key]]).filter(([, v]) => v !== undefined && v !== null));

/** Validation mode, latency, faults and the proxy, applied live (admin role). */
export function ConfigPage() {
  const config = useResource<RuntimeConfig>('config');
  const user = useObservable(access);
  const disabled = !mayWrite(user, 'admin');
  const validation = useAction(config.reload);
  const latency = useAction(config.reload);
  const faults = useAction(config.reload);
  const proxy = useAction(config.reload);
  const c = config.data;
  return (
    <div>
      <h2>Config</h2>
      {config.error !== undefined && <p class="error">{config.error}</p>}
      {disabled && <p class="muted">Your role reads these settings; changing them needs the admin role.</p>}
      <div class="forms">
        <SettingsForm testId="validation" title="Validation" fields={VALIDATION} values={c?.validation} disabled={disabled} action={validation} onApply={(v) => void validation.run('POST', 'validation', pick(v, VALIDATION))} />
        <SettingsForm title="Latency" fields={LATENCY} values={c?.latency} disabled={disabled} action={latency} onApply={(v) => void latency.run('POST', 'config/latency', pick(v, LATENCY))} />
        <SettingsForm title="Faults" fields={FAULTS} values={c?.faults} disabled={disabled} action={faults} onApply={(v) => void faults.run('POST', 'config/faults', pick(v, FAULTS))} />
        <SettingsForm title="Proxy" fields={PROXY} values={c?.proxy} disabled={disabled} action={proxy} onApply={(v) => void proxy.run('POST', 'config/proxy', pick(v, PROXY))} />
      </div>
    </div>
  );
}
