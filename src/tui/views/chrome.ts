import type { ReactElement } from 'react';
import type { StreamStatus } from '../types.js';
import { fit } from '../format.js';
import { column, line, type Piece, type Segment } from './line.js';

export const TABS = ['Overview', 'Log', 'Routes', 'Unmatched', 'Chaos', 'Fixtures'] as const;
export type TabName = (typeof TABS)[number];

/** The top line: what this is, where it reads from, how the live data arrives, the terminal's size. */
export function HeaderLine({ adminUrl, stream, width, height }: { adminUrl: string; stream: StreamStatus; width: number; height: number }): ReactElement {
  const mode: Segment =
    stream.mode === 'websocket'
      ? { text: '● live (websocket)', color: 'green' }
      : stream.mode === 'polling'
        ? { text: `◐ polling every 1 s${stream.detail ? `: ${stream.detail}` : ''}`, color: 'yellow' }
        : stream.mode === 'offline'
          ? { text: `○ offline${stream.detail ? `: ${stream.detail}` : ''}`, color: 'red' }
          : { text: '… connecting', dim: true };
  const size = ` ${width}×${height + 1} `;
  const title = ' mock tui ';
  const url = ` ${adminUrl}  `;
  // the size stays on the right; the stream's detail gives way first
  const room = width - title.length - url.length - size.length;
  if (room < 8) return line('header', [{ text: title, bold: true, inverse: true }, url, mode], width);
  const modeText = fit(mode.text, room);
  return line('header', [{ text: title, bold: true, inverse: true }, url, { ...mode, text: modeText }, { text: size, dim: true }], width);
}

/** The tab bar: number, name, the current one highlighted. */
export function TabBar({ current, width }: { current: number; width: number }): ReactElement {
  const pieces: Piece[] = [' '];
  TABS.forEach((name, i) => {
    pieces.push({ text: ` ${i + 1} ${name} `, inverse: i === current, bold: i === current }, ' ');
  });
  return line('tabs', pieces, width);
}

const COMMON = ['1-6/Tab tabs', '↑↓/jk move', 'r refresh', '? help', 'q quit'];
const BY_TAB: Record<TabName, string[]> = {
  Overview: [],
  Log: ['/ filter', 'esc clear', 'space pause', 'G follow'],
  Routes: [],
  Unmatched: [],
  Chaos: ['⏎ apply', 'x reset'],
  Fixtures: [],
};

/** The bottom line: the keys of this tab first, then the keys of every tab. */
export function HelpBar({ tab, width }: { tab: TabName; width: number }): ReactElement {
  const keys = [...BY_TAB[tab], ...COMMON];
  const pieces: Piece[] = [' '];
  for (const key of keys) {
    const [name, ...what] = key.split(' ');
    pieces.push({ text: name, bold: true, color: 'cyan' }, ` ${what.join(' ')}  `);
  }
  return line('helpbar', pieces, width);
}

const HELP: [string, string][] = [
  ['1 … 6', 'show a tab: Overview, Log, Routes, Unmatched, Chaos, Fixtures'],
  ['Tab, Shift-Tab, ← →', 'next, previous tab'],
  ['↑ ↓, j k', 'move the selection (Log: scroll)'],
  ['PgUp PgDn, g G', 'a page up or down; the top, the bottom (Log: follow the newest)'],
  ['space', 'Log: pause and resume (entries keep arriving meanwhile)'],
  ['/', 'Log: filter by words: a method (GET), a status (404, 5xx), a protocol (http, graphql, grpc, ws), the rest a path substring; Enter keeps it, Esc clears it'],
  ['Enter', 'Chaos: apply the selected profile at once'],
  ['x', 'Chaos: reset chaos to the settings of the start, latency off'],
  ['r', 'fetch the tab again now (tabs refresh every 2 s while shown)'],
  ['?', 'show or hide this help'],
  ['q, Ctrl-C', 'quit, restoring the terminal'],
];

/** The full list of keys, shown in place of the tab while ? is on. */
export function HelpView({ width, height }: { width: number; height: number }): ReactElement {
  const lines = [line('title', [{ text: ' Keys', bold: true }], width), line('blank', [], width)];
  for (const [keys, what] of HELP) lines.push(line(keys, [{ text: ` ${keys.padEnd(22)}`, bold: true, color: 'cyan' }, what], width));
  lines.push(line('blank2', [], width));
  lines.push(line('about', [{ text: ' Everything shown comes from the admin API and its stream (/__mock/ws); ? again closes this help.', dim: true }], width));
  return column('help-view', lines, width, height);
}
