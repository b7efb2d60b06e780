import { useState } from 'preact/hooks';
import { access, mayWrite } from '../access';
import { call } from '../api';
import { JsonEditor } from '../components/json-editor';
import { VirtualList } from '../components/virtual-list';
import { Note } from '../components/note';
import { useObservable } from '../observable';
import { attempt, useAction, useResource } from '../resource';
import type { MockRecord } from '../types';

const ROW = 34;
/** Rows in view before the list scrolls: a thousand mocks draw what a dozen do. */
const VISIBLE = 12;
const NEW_MOCK = { method: 'GET', path: '/hello', status_code: 200, response: { body: { message: 'hello' } } };

/** Runtime mocks (create, edit, delete) and the override rules, as JSON the API checks. */
export function MocksPage() {
  const mocks = useResource<MockRecord[]>('mocks');
  const overrides = useResource<unknown[]>('overrides');
  const user = useObservable(access);
  const canWrite = mayWrite(user, 'editor');
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const remove = useAction(mocks.reload);
  const list = mocks.data ?? [];
  const current = list.find((m) => m.id === editing);

  return (
    <div>
      <h2>Runtime mocks</h2>
      {mocks.error !== undefined && <p class="error">{mocks.error}</p>}
      <div class="row">
        <button class="primary" disabled={!canWrite} onClick={() => setEditing('new')}>
          New mock
        </button>
        <Note action={remove} />
      </div>
      <div class="mock-head">
        <span>id</span>
        <span>method</span>
        <span>path</span>
        <span>status</span>
        <span>enabled</span>
        <span>priority</span>
        <span />
      </div>
      <div class="mock-list" style={{ height: `${Math.max(1, Math.min(list.length, VISIBLE)) * ROW + 2}px` }}>
        <VirtualList
          count={list.length}
          rowHeight={ROW}
          row={(i) => {
            const m = list[i];
            return (
              <div class={`mock-row${m.id === editing ? ' selected' : ''}`}>
                <span>{m.id}</span>
                <span>{m.method}</span>
                <span class="path">{m.path}</span>
                <span>{m.status_code ?? 200}</span>
                <span>{m.enabled === false ? 'no' : 'yes'}</span>
                <span>{m.priority ?? 0}</span>
                <span>
                  <button onClick={() => setEditing(m.id)}>{canWrite ? 'Edit' : 'View'}</button>
                  <button disabled={!canWrite} onClick={() => void remove.run('DELETE', `mocks/${encodeURIComponent(m.id)}`, undefined, `Deleted ${m.id}`)}>
                    Delete
                  </button>
                </span>
              </div>
            );
          }}
        />
      </div>
      {editing === 'new' && (
        <section class="card">
          <h3>New mock</h3>
          <JsonEditor key="new" value={NEW_MOCK} disabled={!canWrite} saveLabel="Create" onSave={(v) => attempt(() => call('POST', 'mocks', v), () => (setEditing(null), mocks.reload()))} />
        </section>
      )}
      {current !== undefined && (
        <section class="card">
          <h3>Mock {current.id}</h3>
          <JsonEditor key={current.id} value={current} disabled={!canWrite} onSave={(v) => attempt(() => call('PUT', `mocks/${encodeURIComponent(current.id)}`, v), mocks.reload)} />
        </section>
      )}
      <h2>Override rules</h2>
      <p class="muted">The whole rule list, replaced at once (PUT /__mock/overrides); an invalid set changes nothing.</p>
      {overrides.data !== undefined && (
        <JsonEditor key={JSON.stringify(overrides.data)} value={overrides.data} disabled={!canWrite} onSave={(v) => attempt(() => call('PUT', 'overrides', v), overrides.reload)} />
      )}
    </div>
  );
}
