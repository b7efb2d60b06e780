// Components are written with React.createElement (`h`) in .ts files: tsconfig compiles src/**/*.ts
// only, and a project-wide "jsx" setting would be React's, which the web dashboard (Preact,
// built by Vite) must not inherit.
import React, { type ReactElement } from 'react';
import { Box, Text } from 'ink';
import { visibleControls } from '../../../common/terminal-text.js';
import { fit } from '../format.js';

export const h = React.createElement;

/** A piece of a line with its style. */
export interface Segment {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export type Piece = string | Segment;

/**
 * One screen line of exactly `width` columns: the pieces in order, cut where the width ends (an
 * ellipsis marks it) and padded with spaces. Views build every line with it, so nothing wraps and
 * a redraw overwrites the whole line.
 */
export function line(key: string | number, pieces: readonly Piece[], width: number): ReactElement {
  const children: ReactElement[] = [];
  let left = width;
  let i = 0;
  for (const piece of pieces) {
    if (left <= 0) break;
    const segment = typeof piece === 'string' ? { text: piece } : piece;
    // what the admin API reports came from the network: its control characters are shown, never sent
    const flat = visibleControls(segment.text.replace(/[\r\n\t]/g, ' '));
    const last = flat.length >= left;
    const text = last ? fit(flat, left) : flat;
    left -= text.length;
    const { text: _text, ...style } = segment;
    children.push(h(Text, { key: i++, ...style }, text));
  }
  if (left > 0) children.push(h(Text, { key: i++ }, ' '.repeat(left)));
  return h(Text, { key, wrap: 'truncate-end' }, ...children);
}

/** A column of lines, padded with empty lines to exactly `height`. */
export function column(key: string, lines: readonly ReactElement[], width: number, height: number): ReactElement {
  const shown = lines.slice(0, Math.max(0, height));
  const padding = Array.from({ length: Math.max(0, height - shown.length) }, (_, n) => line(`pad${n}`, [], width));
  return h(Box, { key, flexDirection: 'column', width, height: Math.max(0, height) }, ...shown, ...padding);
}

/** The color of an HTTP status. */
export function statusColor(status: number): string {
  if (status >= 500) return 'red';
  if (status >= 400) return 'yellow';
  if (status >= 300) return 'cyan';
  return 'green';
}
