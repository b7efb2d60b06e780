import { useState } from 'preact/hooks';
import { access, mayWrite } from '../access';
import { Note } from '../components/note';
import { fmtTime } from '../format';
import { unmatchedSeen } from '../live';
import { useFrameThrottled, useObservable } from '../observable';
import { useAction, useResource } from '../resource';
import type { MockRecord, Unmatched } from '../types';

/** The runtime mock that answers this request from now on: same method and path, 200 with an empty object. */
const mockFor = (u: Unmatched): Partial<MockRecord> => ({
  name: `from unmatched ${u.entry.method} ${u.entry.path}`,
  method: u.entry.method,
  path: u.entry.path,
  status_code: 200,
  response: { body: {} },
});

/** Requests nothing matched (404s), with the closest routes and why each missed, field by field. */
export function UnmatchedPage() {
  // asked again when the stream brings a new unmatched entry (at most once a second), not on a timer
  const seen = useFrameThrottled(unmatchedSeen, 1000);
  const list = useResource<Unmatched[]>('unmatched?limit=100', undefined, seen);
  const [chosen, setChosen] = useState<string | null>(null);
  const user = useObservable(access);
  const create = useAction();
  const [created, setCreated] = useState<string | undefined>(undefined);
  const items = list.data ?? [];
  const open = items.find((u) => u.entry.id === chosen) ?? items[0];

  const mock = async (u: Unmatched): Promise<void> => {
    const made = await create.run<MockRecord>('POST', 'mocks', mockFor(u), 'Mock created: the request is answered now');
    if (made !== undefined) setCreated(made.id);
  };

  return (
    <div>
      <h2>Unmatched requests</h2>
      {list.error !== undefined && <p class="error">{list.error}</p>}
      {items.length === 0 && list.error === undefined && <p class="muted">No unmatched request yet: every request found a route.</p>}
      <div class="split">
        <ul class="picklist">
          {items.map((u) => (
            <li key={u.entry.id} class={u === open ? 'active' : ''} onClick={() => setChosen(u.entry.id)}>
              <span class="muted">{fmtTime(u.entry.timestamp)}</span> <b>{u.entry.method}</b> {u.entry.path}
            </li>
          ))}
        </ul>
        {open !== undefined && (
          <section class="card grow" data-testid="unmatched-detail">
            <div class="row">
              <h3>
                {open.entry.method} {open.entry.path} → {open.entry.status_code}
              </h3>
              <button class="primary" disabled={!mayWrite(user, 'editor') || create.busy} onClick={() => void mock(open)}>
                Mock this request
              </button>
              <Note action={create} />
              {created !== undefined && create.error === undefined && <a href="#mocks">edit mock {created}</a>}
            </div>
            <h4>Closest routes</h4>
            {open.closest.length === 0 && <p class="muted">No route comes close.</p>}
            {open.closest.map((c) => (
              <div key={`${c.method} ${c.path}`} class="closest">
                <div>
                  <b>{c.method}</b> {c.path} <span class="tag">{c.source}</span>
                  {c.mock_id !== undefined && <span class="tag">mock {c.mock_id}</span>} <span class="muted">score {c.score}</span>
                </div>
                <table>
                  <thead>
                    <tr>
                      <th>field</th>
                      <th>expected</th>
                      <th>actual</th>
                      <th>why</th>
                    </tr>
                  </thead>
                  <tbody>
                    {c.mismatches.map((m, i) => (
                      <tr key={i}>
                        <td>
                          {m.field}
                          {m.name !== undefined && ` ${m.name}`}
                        </td>
                        <td>{m.expected === undefined ? '' : String(m.expected)}</td>
                        <td>{m.actual === undefined ? '' : String(m.actual)}</td>
                        <td class="grow-cell">{m.reason}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ))}
          </section>
        )}
      </div>
    </div>
  );
}
