import { visibleControls } from '../../common/terminal-text.js';

/** Pure text helpers of the terminal dashboard: every line is cut to the terminal's width here, so ink never wraps one. */

const BLOCKS = '▁▂▃▄▅▆▇█';

/**
 * The last `width` values as a sparkline of unicode blocks, scaled to their own maximum (or to
 * `max` when given): 0 is the lowest block, a missing value (null) a space.
 */
export function sparkline(values: readonly (number | null)[], width: number, max?: number): string {
  if (width <= 0) return '';
  const shown = values.slice(-width);
  const top = max ?? Math.max(0, ...shown.map((v) => v ?? 0));
  const line = shown
    .map((v) => {
      if (v === null || !Number.isFinite(v)) return ' ';
      if (top <= 0) return BLOCKS[0];
      const level = Math.round((Math.max(0, v) / top) * (BLOCKS.length - 1));
      return BLOCKS[Math.min(BLOCKS.length - 1, level)];
    })
    .join('');
  return line.padStart(width, ' ');
}

/** `text` cut to `width` columns (an ellipsis marks the cut) and padded with spaces to exactly `width`. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  // paths, names and log messages come from the network: a control character would act on the terminal
  const flat = visibleControls(text.replace(/[\r\n\t]/g, ' '));
  if (flat.length <= width) return flat.padEnd(width, ' ');
  if (width === 1) return '…';
  return `${flat.slice(0, width - 1)}…`;
}

/** Like fit() but aligned right. */
export function fitRight(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length >= width ? fit(text, width) : text.padStart(width, ' ');
}

/** 0.4 → "0.4", 12.345 → "12.3", 1234 → "1234", null → "–". */
export function num(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(Math.abs(value) >= 100 ? 0 : digits);
}

/** Milliseconds as "12 ms", "1.2 s", or "–". */
export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${num(value)} ms`;
}

/** Bytes as "512 B", "1.5 KiB", "2.0 MiB". */
export function bytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${(value / 1024 / 1024).toFixed(1)} MiB`;
}

/** The time of day of an ISO timestamp, "05:48:30" (local time), or "–". */
export function clock(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '–';
  return d.toTimeString().slice(0, 8);
}

/** The window of `count` rows around `selected` that fits `height` rows: the first index shown. */
export function windowStart(count: number, selected: number, height: number): number {
  if (count <= height) return 0;
  const half = Math.floor(height / 2);
  return Math.max(0, Math.min(count - height, selected - half));
}

/**
 * A bar chart `rows` lines tall of the last `width` values, top line first: each column is the
 * value's height in eighths of a line (full blocks below, the partial block on top), scaled to the
 * largest value shown. With one row it is a sparkline. A zero keeps the lowest block on the bottom
 * line (the baseline stays visible); a missing value (null) is blank.
 */
export function chart(values: readonly (number | null)[], width: number, rows: number): string[] {
  if (rows <= 1) return [sparkline(values, width)];
  const shown = values.slice(-width);
  const top = Math.max(0, ...shown.map((v) => v ?? 0));
  const pad = width - shown.length;
  const lines: string[] = [];
  for (let row = rows - 1; row >= 0; row -= 1) {
    let text = ' '.repeat(Math.max(0, pad));
    for (const v of shown) {
      if (v === null || !Number.isFinite(v)) {
        text += ' ';
        continue;
      }
      const eighths = top <= 0 ? 0 : Math.round((Math.max(0, v) / top) * rows * 8);
      const fill = Math.max(0, Math.min(8, eighths - row * 8));
      text += fill > 0 ? BLOCKS[fill - 1] : row === 0 ? BLOCKS[0] : ' ';
    }
    lines.push(text);
  }
  return lines;
}
