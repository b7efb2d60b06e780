import { useState } from 'preact/hooks';
import { access, mayWrite } from '../access';
import { apiUrl } from '../api';
import { Note } from '../components/note';
import { fmtInt } from '../format';
import { useObservable } from '../observable';
import { useAction, useResource } from '../resource';

interface Fixture {
  id: string;
  protocol: string;
  method: string;
  path: string;
  saved_at: string;
  file_size: number;
  file_path: string;
}

interface SmokeReport {
  message: string;
  results?: Array<{ name?: string; method?: string; path?: string; passed?: boolean; ok?: boolean; error?: string }>;
}

/** Recorded fixtures: list, download, delete one or many, and a smoke run of the smoke-test ones. */
export function FixturesPage() {
  const fixtures = useResource<Fixture[]>('fixtures');
  const user = useObservable(access);
  const canWrite = mayWrite(user, 'editor');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const remove = useAction(() => (fixtures.reload(), setPicked(new Set())));
  const smoke = useAction();
  const [report, setReport] = useState<SmokeReport | undefined>(undefined);
  const toggle = (id: string): void => {
    const next = new Set(picked);
    if (!next.delete(id)) next.add(id);
    setPicked(next);
  };
  return (
    <div>
      <h2>Fixtures</h2>
      {fixtures.error !== undefined && <p class="error">{fixtures.error}</p>}
      <div class="row">
        <button disabled={!canWrite || picked.size === 0} onClick={() => void remove.run('POST', 'fixtures/delete-bulk', { fixture_ids: [...picked] }, `Deleted ${picked.size}`)}>
          Delete selected ({picked.size})
        </button>
        <button onClick={() => void smoke.run<SmokeReport>('GET', 'smoke/run').then((r) => r !== undefined && setReport(r))}>Smoke run</button>
        <Note action={remove} />
        {smoke.error !== undefined && <span class="error">{smoke.error}</span>}
        {report !== undefined && <span class="ok">{report.message}</span>}
      </div>
      <table class="list">
        <thead>
          <tr>
            <th />
            <th>protocol</th>
            <th>method</th>
            <th>path</th>
            <th>saved</th>
            <th>bytes</th>
            <th>file</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(fixtures.data ?? []).map((f) => (
            <tr key={f.id}>
              <td>
                <input type="checkbox" checked={picked.has(f.id)} onChange={() => toggle(f.id)} />
              </td>
              <td>{f.protocol}</td>
              <td>{f.method}</td>
              <td>{f.path}</td>
              <td>{f.saved_at}</td>
              <td>{fmtInt(f.file_size)}</td>
              <td class="muted grow-cell">{f.file_path}</td>
              <td>
                <a class="button" href={`${apiUrl('fixtures/download')}?id=${encodeURIComponent(f.id)}`} download>
                  Download
                </a>
                <button disabled={!canWrite} onClick={() => void remove.run('DELETE', `fixtures/${encodeURIComponent(f.id)}`, undefined, `Deleted ${f.id}`)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {report?.results !== undefined && <pre>{JSON.stringify(report.results, null, 2)}</pre>}
    </div>
  );
}
