import { useEffect, useState } from 'preact/hooks';
import type { Action } from '../resource';
import { fmtNum } from '../format';
import { Note } from './note';

export interface FieldSpec {
  key: string;
  label: string;
  kind: 'bool' | 'number' | 'text' | 'select' | 'numbers';
  options?: string[];
}

type Values = Record<string, unknown>;

interface Props {
  title: string;
  fields: FieldSpec[];
  values: Values | undefined;
  disabled: boolean;
  action: Action;
  /** Sends the edited values (numbers parsed, lists split). */
  onApply(values: Values): void;
  testId?: string;
}

/** Reads an input back as the type its field holds; `numbers` is a comma-separated list. */
function parse(kind: FieldSpec['kind'], input: HTMLInputElement | HTMLSelectElement): unknown {
  if (kind === 'bool') return (input as HTMLInputElement).checked;
  if (kind === 'number') return input.value === '' ? null : Number(input.value);
  if (kind === 'numbers') return input.value.split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  return input.value;
}

/** A settings section as a small form, applied live by one write; the API's answer shows beside it. */
export function SettingsForm({ title, fields, values, disabled, action, onApply, testId }: Props) {
  const [draft, setDraft] = useState<Values>(values ?? {});
  // the settings as the server answered them, again after each write
  useEffect(() => setDraft(values ?? {}), [values]);
  const change = (f: FieldSpec) => (e: Event) => setDraft({ ...draft, [f.key]: parse(f.kind, e.currentTarget as HTMLInputElement) });
  // no inputs before the settings arrive: an edit made meanwhile would be overwritten by them
  if (values === undefined) {
    return (
      <section class="card form" data-testid={testId}>
        <h3>{title}</h3>
        <p class="muted">Loading…</p>
      </section>
    );
  }
  return (
    <section class="card form" data-testid={testId}>
      <h3>{title}</h3>
      {fields.map((f) => {
        const v = draft[f.key];
        return (
          <label key={f.key}>
            <span>{f.label}</span>
            {f.kind === 'bool' ? (
              <input type="checkbox" name={f.key} checked={v === true} disabled={disabled} onChange={change(f)} />
            ) : f.kind === 'select' ? (
              <select name={f.key} value={String(v ?? '')} disabled={disabled} onChange={change(f)}>
                {(f.options ?? []).map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : f.kind === 'number' ? (
              <input name={f.key} type="number" step="any" value={typeof v === 'number' ? fmtNum(v) : v === null || v === undefined ? '' : String(v)} disabled={disabled} onChange={change(f)} />
            ) : (
              <input name={f.key} type="text" value={Array.isArray(v) ? v.map((x) => (typeof x === 'number' ? fmtNum(x) : String(x))).join(', ') : v === null || v === undefined ? '' : String(v)} disabled={disabled} onChange={change(f)} />
            )}
          </label>
        );
      })}
      <div class="row">
        <button class="primary" disabled={disabled || action.busy} onClick={() => onApply(draft)}>
          Apply
        </button>
        <Note action={action} />
      </div>
    </section>
  );
}
