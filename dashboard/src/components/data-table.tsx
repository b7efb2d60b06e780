import { fmtValue } from '../format';

/** Rows of unknown shape (what a protocol server reports) as a table: an array of objects, or an object of objects keyed by name. */
export function DataTable({ data }: { data: unknown }) {
  const rows: Array<Record<string, unknown>> = Array.isArray(data)
    ? data.map((row) => (typeof row === 'object' && row !== null ? (row as Record<string, unknown>) : { value: row }))
    : Object.entries((data ?? {}) as Record<string, unknown>).map(([name, row]) => ({ name, ...(typeof row === 'object' && row !== null ? row : { value: row }) }));
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  if (rows.length === 0) return <p class="muted">Nothing yet.</p>;
  return (
    <table>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c}>{c.replaceAll('_', ' ')}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>
            {columns.map((c) => (
              <td key={c} class="grow-cell">
                {fmtValue(row[c])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
