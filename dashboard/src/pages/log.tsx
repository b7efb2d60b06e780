import { useRef, useState } from 'preact/hooks';
import { ANSWER_SOURCE_LABELS, ANSWER_SOURCES } from '../../../common/answer-source.js';
import { logMatcher } from '../../../common/log-filter.js';
import { routeLabel } from '../../../common/request-log-view.js';
import { ProtocolFields } from '../components/protocol-fields';
import { EntryBodies, EntryReason, statusText } from '../components/entry-parts';
import { VirtualList } from '../components/virtual-list';
import { download, fmtMs, fmtTime, fmtValue, statusClass } from '../format';
import { toHar } from '../har';
import { clearLog, LOG_CAPACITY, logs, skipped } from '../live';
import { useFrameThrottled } from '../observable';
import type { LogEntry } from '../types';

const ROW = 24;
/** New entries are drawn ten times a second: enough to watch, cheap to paint under a flood. */
const REDRAW_MS = 100;
const METHODS = ['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

interface Filter {
  method: string;
  path: string;
  status: string;
  source: string;
}

/**
 * The live log: the newest 10,000 entries of the stream in a virtual list (only the rows in view are
 * rendered, at most ten times a second, in an animation frame), filtered, paused, opened, exported as HAR or JSON.
 */
export function LogPage() {
  const [filter, setFilter] = useState<Filter>({ method: '', path: '', status: '', source: '' });
  const [frozen, setFrozen] = useState<LogEntry[] | null>(null);
  const [open, setOpen] = useState<LogEntry | null>(null);
  const buffer = useFrameThrottled(logs, REDRAW_MS, frozen !== null);
  const left = useFrameThrottled(skipped, REDRAW_MS, frozen !== null);
  const seen = useRef(buffer.pushed);
  const test = logMatcher(filter);
  const size = frozen?.length ?? buffer.size;
  const at = (i: number): LogEntry => (frozen === null ? buffer.at(i) : frozen[i]);
  let indices: number[] | null = null;
  if (test !== undefined) {
    indices = [];
    for (let i = 0; i < size; i++) if (test(at(i))) indices.push(i);
  }
  // rows that arrived above the view since the last draw, so a reader scrolled down keeps their place
  const arrived = frozen === null ? Math.min(buffer.pushed - seen.current, size) : 0;
  seen.current = buffer.pushed;
  const firstOld = indices?.findIndex((i) => i >= arrived) ?? arrived;
  const addedAtTop = indices !== null && firstOld === -1 ? indices.length : firstOld;
  const count = indices?.length ?? size;
  const entry = (i: number): LogEntry => at(indices === null ? i : indices[i]);
  const shown = (): LogEntry[] => Array.from({ length: count }, (_, i) => entry(i));
  const set = (key: keyof Filter) => (e: Event) => setFilter({ ...filter, [key]: (e.currentTarget as HTMLInputElement).value });

  return (
    <div class="log-page">
      <h2>Live log</h2>
      <div class="row toolbar">
        <select aria-label="method" value={filter.method} onChange={set('method')}>
          {METHODS.map((m) => (
            <option key={m} value={m}>
              {m === '' ? 'any method' : m}
            </option>
          ))}
        </select>
        <input aria-label="path" placeholder="path contains" value={filter.path} onInput={set('path')} />
        <input aria-label="status" placeholder="status: 404, 5xx, NOT_FOUND" size={14} value={filter.status} onInput={set('status')} />
        <select aria-label="source" value={filter.source} onChange={set('source')}>
          <option value="">any source</option>
          {ANSWER_SOURCES.map((source) => (
            <option key={source} value={source}>
              {ANSWER_SOURCE_LABELS[source]}
            </option>
          ))}
        </select>
        <button onClick={() => setFrozen(frozen === null ? buffer.toArray() : null)}>{frozen === null ? 'Pause' : 'Resume'}</button>
        <button title="Empties this page's log; the server keeps its own" onClick={() => (clearLog(), setFrozen(null))}>
          Clear view
        </button>
        <button onClick={() => download('mock-log.har', JSON.stringify(toHar(shown()), null, 1))}>Export HAR</button>
        <button onClick={() => download('mock-log.json', JSON.stringify(shown(), null, 1))}>Export JSON</button>
        <span class="muted nowrap" data-testid="log-count">
          {count.toLocaleString('en-US')} shown of {size.toLocaleString('en-US')} (max {LOG_CAPACITY.toLocaleString('en-US')}){frozen !== null && ' — paused'}
          {left > 0 && ` — ${left.toLocaleString('en-US')} not streamed (over 1,000 a second; the metrics count them)`}
        </span>
      </div>
      <div class="log-body">
        <div class="log-main">
          <div class="log-head">
            <span>time</span>
            <span>method</span>
            <span>status</span>
            <span>path</span>
            <span>ms</span>
            <span>route</span>
            <span>source</span>
          </div>
          <VirtualList
            count={count}
            rowHeight={ROW}
            addedAtTop={addedAtTop}
            row={(i) => {
              const e = entry(i);
              return (
                <div class={`log-row${open?.id === e.id ? ' selected' : ''}`} onClick={() => setOpen(e)}>
                  <span>{fmtTime(e.timestamp)}</span>
                  <span>{e.method}</span>
                  <span class={statusClass(e.status_code)}>{statusText(e)}</span>
                  <span class="path">{e.path}</span>
                  <span>{fmtMs(e.response_time_ms)}</span>
                  <span class="muted">{routeLabel(e)}</span>
                  <span class="muted">{ANSWER_SOURCE_LABELS[e.source] ?? e.source}</span>
                </div>
              );
            }}
          />
        </div>
        {open !== null && <EntryDetail entry={open} onClose={() => setOpen(null)} />}
      </div>
    </div>
  );
}

function EntryDetail({ entry, onClose }: { entry: LogEntry; onClose(): void }) {
  // a protocol's own fields (ProtocolFields), the reason and the bodies (components/entry-parts) have sections of their own
  const { headers, graphql: _graphql, grpc: _grpc, websocket: _websocket, error: _error, request_body: _request, response_body: _response, ...fields } = entry;
  return (
    <aside class="detail card">
      <div class="row">
        <h3>
          {entry.method} {entry.path}
        </h3>
        <button onClick={onClose}>Close</button>
      </div>
      <EntryReason entry={entry} />
      <dl>
        {Object.entries(fields).map(([k, v]) => [<dt key={`t${k}`}>{k}</dt>, <dd key={`d${k}`}>{fmtValue(v)}</dd>])}
      </dl>
      <ProtocolFields entry={entry} />
      <h4>Request headers</h4>
      <table>
        <tbody>
          {Object.entries(headers).map(([k, v]) => (
            <tr key={k}>
              <td>{k}</td>
              <td class="wrap">{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <EntryBodies entry={entry} />
    </aside>
  );
}
