import { useState } from 'preact/hooks';
import { access, mayWrite } from '../access';
import { Note } from '../components/note';
import { fmtNum } from '../format';
import { useObservable } from '../observable';
import { useAction, useResource } from '../resource';

interface Machine {
  name: string;
  initial_state: string;
  states: string[];
  resources: number;
}

interface Clock {
  enabled: boolean;
  virtual_time: string;
  real_time: string;
  scale_factor: number;
}

interface Ratio {
  blend_ratio: number;
  enabled: boolean;
  default_ratio: number;
  level: string;
}

/** State machines, the reality continuum's ratio and the virtual clock. */
export function StatePage() {
  const user = useObservable(access);
  return (
    <div>
      <h2>State machines</h2>
      <Machines canWrite={mayWrite(user, 'editor')} />
      <h2>Reality continuum</h2>
      <Continuum canWrite={mayWrite(user, 'admin')} />
      <h2>Virtual clock</h2>
      <VirtualClock canWrite={mayWrite(user, 'admin')} />
    </div>
  );
}

function Machines({ canWrite }: { canWrite: boolean }) {
  const machines = useResource<Machine[]>('state');
  const reset = useAction(machines.reload);
  return (
    <section class="card">
      {machines.error !== undefined && <p class="muted">{machines.error}</p>}
      <table class="list">
        <tbody>
          {(machines.data ?? []).map((m) => (
            <tr key={m.name}>
              <td>
                <b>{m.name}</b>
              </td>
              <td class="grow-cell">{m.states.map((s) => (s === m.initial_state ? `[${s}]` : s)).join(' → ')}</td>
              <td>{m.resources} resources</td>
              <td>
                <button disabled={!canWrite} onClick={() => void reset.run('DELETE', `state/${encodeURIComponent(m.name)}`, undefined, `${m.name} reset`)}>
                  Reset
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Note action={reset} />
    </section>
  );
}

function Continuum({ canWrite }: { canWrite: boolean }) {
  const [path, setPath] = useState('/**');
  const probe = path.includes('*') ? '/' : path;
  const ratio = useResource<Ratio>(`continuum/ratio?path=${encodeURIComponent(probe)}`);
  const [value, setValue] = useState<number | undefined>(undefined);
  const set = useAction(ratio.reload);
  const shown = value ?? ratio.data?.blend_ratio ?? 0;
  return (
    <section class="card form">
      {ratio.error !== undefined && <p class="muted">{ratio.error}</p>}
      <label>
        <span>Paths (glob)</span>
        <input value={path} onInput={(e) => setPath((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <label>
        <span>Upstream share {Math.round(shown * 100)}%</span>
        <input type="range" min={0} max={1} step={0.05} value={shown} disabled={!canWrite} onInput={(e) => setValue(Number((e.currentTarget as HTMLInputElement).value))} />
      </label>
      <div class="row">
        <button class="primary" disabled={!canWrite || value === undefined} onClick={() => void set.run('PUT', 'continuum/ratio', { path, ratio: value }, 'Ratio set')}>
          Set ratio
        </button>
        <button disabled={!canWrite} onClick={() => void set.run('PUT', 'continuum/enabled', { enabled: !(ratio.data?.enabled ?? false) })}>
          {ratio.data?.enabled === true ? 'Turn off' : 'Turn on'}
        </button>
        <span class="muted">{ratio.data !== undefined && `${ratio.data.enabled ? 'on' : 'off'}; default ${fmtNum(ratio.data.default_ratio)}; decided by ${ratio.data.level}`}</span>
        <Note action={set} />
      </div>
    </section>
  );
}

function VirtualClock({ canWrite }: { canWrite: boolean }) {
  const clock = useResource<Clock>('time', 1000);
  const change = useAction(clock.reload);
  const [advance, setAdvance] = useState('1h');
  const [at, setAt] = useState('');
  const c = clock.data;
  return (
    <section class="card form">
      <p>
        {c === undefined ? '…' : c.enabled ? `virtual ${c.virtual_time} (×${c.scale_factor})` : `real clock ${c.real_time}`}
      </p>
      <div class="row wrap">
        <button disabled={!canWrite} onClick={() => void change.run('POST', 'time/enable', { enabled: !(c?.enabled ?? false) })}>
          {c?.enabled === true ? 'Back to the real clock' : 'Use the virtual clock'}
        </button>
        <input aria-label="advance by" size={6} value={advance} onInput={(e) => setAdvance((e.currentTarget as HTMLInputElement).value)} />
        <button disabled={!canWrite} onClick={() => void change.run('POST', 'time/advance', { duration: advance })}>
          Advance
        </button>
        <input aria-label="set time" placeholder="2025-01-01T00:00:00Z" value={at} onInput={(e) => setAt((e.currentTarget as HTMLInputElement).value)} />
        <button disabled={!canWrite || at === ''} onClick={() => void change.run('POST', 'time/set', { time: at })}>
          Set
        </button>
        <Note action={change} />
      </div>
    </section>
  );
}
