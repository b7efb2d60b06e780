import type { ReactElement } from 'react';
import { bytes, fit, fitRight, windowStart } from '../format.js';
import type { FixtureItem, FixtureSettings, Loaded } from '../types.js';
import { column, line } from './line.js';

export interface FixturesProps {
  loaded: Loaded<{ items: FixtureItem[]; settings: FixtureSettings }>;
  selected: number;
  width: number;
  height: number;
}

/** The fixture files (GET /__mock/fixtures) and whether recording and replay are on (GET /__mock/fixtures/settings). */
export function FixturesView({ loaded, selected, width, height }: FixturesProps): ReactElement {
  const lines: ReactElement[] = [];
  if (loaded.error !== undefined) lines.push(line('error', [{ text: ` ${loaded.error}`, color: 'red' }], width));
  const data = loaded.data;
  if (data === undefined) {
    if (loaded.error === undefined) lines.push(line('loading', [{ text: ' loading fixtures…', dim: true }], width));
    return column('fixtures', lines, width, height);
  }
  const { items, settings } = data;
  lines.push(
    line('settings', [` ${items.length} fixture${items.length === 1 ? '' : 's'} in ${settings.dir} · record ${settings.record_enabled ? 'on' : 'off'} · replay ${settings.replay_enabled ? 'on' : 'off'}`], width),
  );
  if (items.length === 0) {
    lines.push(line('empty', [{ text: ' no fixtures: mock serve --record writes one per exchange (docs/record-replay.md)', dim: true }], width));
    return column('fixtures', lines, width, height);
  }
  const fileWidth = Math.max(10, Math.floor(width / 3));
  const pathWidth = Math.max(8, width - 1 - 10 - 8 - 20 - 10 - fileWidth - 2);
  lines.push(line('head', [{ text: ` ${'protocol'.padEnd(10)}${'method'.padEnd(8)}${fit('path', pathWidth)} ${'saved'.padEnd(20)}${fitRight('size', 9)} ${fit('file', fileWidth)}`, bold: true }], width));
  const room = Math.max(0, height - lines.length);
  const first = windowStart(items.length, selected, room);
  items.slice(first, first + room).forEach((f, n) => {
    const chosen = first + n === selected;
    const text = `${chosen ? '›' : ' '}${fit(f.protocol, 9)} ${fit(f.method, 7)} ${fit(f.path, pathWidth)} ${fit(f.saved_at.replace('T', ' ').slice(0, 19), 19)} ${fitRight(bytes(f.file_size), 9)} ${fit(f.file_path, fileWidth)}`;
    lines.push(line(f.id, [{ text, inverse: chosen }], width));
  });
  return column('fixtures', lines, width, height);
}
