import type { ReactElement } from 'react';
import { clock, fit, num, windowStart } from '../format.js';
import type { Loaded, UnmatchedItem } from '../types.js';
import { column, line, statusColor } from './line.js';

export interface UnmatchedProps {
  loaded: Loaded<UnmatchedItem[]>;
  selected: number;
  width: number;
  height: number;
}

/** Requests no route claimed (GET /__mock/unmatched), newest first; below, the selected one's closest routes and why each did not match. */
export function UnmatchedView({ loaded, selected, width, height }: UnmatchedProps): ReactElement {
  const lines: ReactElement[] = [];
  if (loaded.error !== undefined) lines.push(line('error', [{ text: ` ${loaded.error}`, color: 'red' }], width));
  const items = loaded.data;
  if (items === undefined) {
    if (loaded.error === undefined) lines.push(line('loading', [{ text: ' loading unmatched requests…', dim: true }], width));
    return column('unmatched', lines, width, height);
  }
  if (items.length === 0) {
    lines.push(line('empty', [{ text: ' no unmatched requests: a request no route, runtime mock or custom route claims shows up here', dim: true }], width));
    return column('unmatched', lines, width, height);
  }
  lines.push(line('summary', [` ${items.length} unmatched request${items.length === 1 ? '' : 's'}, newest first`], width));
  const listRoom = Math.max(1, Math.min(items.length, Math.floor((height - lines.length) / 2)));
  const first = windowStart(items.length, selected, listRoom);
  items.slice(first, first + listRoom).forEach((item, n) => {
    const e = item.entry;
    const chosen = first + n === selected;
    lines.push(
      line(
        `${e.id}-${n}`,
        [
          { text: `${chosen ? '›' : ' '}${clock(e.timestamp).padEnd(9)}${fit(e.method, 7)} ${fit(e.path, Math.max(8, width - 40))} `, inverse: chosen },
          { text: String(e.status_code).padEnd(5), color: statusColor(e.status_code), inverse: chosen },
          { text: `${item.closest.length} close route${item.closest.length === 1 ? '' : 's'}`, inverse: chosen, dim: !chosen },
        ],
        width,
      ),
    );
  });
  const item = items[Math.min(selected, items.length - 1)];
  lines.push(line('rule', [{ text: '─'.repeat(width), dim: true }], width));
  if (item.closest.length === 0) lines.push(line('none', [{ text: ` ${item.entry.method} ${item.entry.path}: no route comes close`, dim: true }], width));
  for (const [n, route] of item.closest.entries()) {
    lines.push(line(`c${n}`, [{ text: ` ${route.method} ${route.path}`, bold: true }, { text: `  ${route.source}${route.mock_id ? ` ${route.mock_id}` : ''}, score ${num(route.score, 2)}`, dim: true }], width));
    for (const [m, mismatch] of route.mismatches.entries()) {
      lines.push(line(`c${n}m${m}`, ['   ', { text: `${mismatch.field}${mismatch.name ? ` ${mismatch.name}` : ''}: `, color: 'yellow' }, mismatch.reason], width));
    }
  }
  return column('unmatched', lines, width, height);
}
