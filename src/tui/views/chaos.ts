import type { ReactElement } from 'react';
import { fit, windowStart } from '../format.js';
import type { ChaosProfile, ChaosStatus, Loaded } from '../types.js';
import { column, line } from './line.js';

export interface ChaosProps {
  loaded: Loaded<{ profiles: ChaosProfile[]; status: ChaosStatus }>;
  selected: number;
  /** The outcome of the last apply or reset (one line), red when it failed. */
  notice?: { text: string; failed: boolean };
  width: number;
  height: number;
}

/** The chaos in force (profile, blocks on, faults injected) and the profiles, one applied with Enter. */
export function ChaosView({ loaded, selected, notice, width, height }: ChaosProps): ReactElement {
  const lines: ReactElement[] = [];
  if (loaded.error !== undefined) lines.push(line('error', [{ text: ` ${loaded.error}`, color: 'red' }], width));
  if (notice !== undefined) lines.push(line('notice', [{ text: ` ${notice.text}`, color: notice.failed ? 'red' : 'green' }], width));
  const data = loaded.data;
  if (data === undefined) {
    if (loaded.error === undefined) lines.push(line('loading', [{ text: ' loading chaos profiles…', dim: true }], width));
    return column('chaos', lines, width, height);
  }
  const { profiles, status } = data;
  const faults = Object.entries(status.by_type)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${kind} ${count}`);
  lines.push(
    line('active', [' active profile: ', { text: status.active_profile ?? 'none', bold: true, color: status.active_profile ? 'magenta' : undefined }, ` · on: ${status.enabled_blocks.length === 0 ? 'nothing' : status.enabled_blocks.join(', ')}`], width),
  );
  lines.push(line('faults', [` faults injected: ${status.total_faults}${faults.length === 0 ? '' : ` (${faults.join(', ')})`}`], width));
  lines.push(line('head', [{ text: ` ${'  profile'.padEnd(24)}${'kind'.padEnd(10)}description`, bold: true }], width));
  const nameWidth = Math.max(10, ...profiles.map((p) => p.name.length + 2));
  const room = Math.max(0, height - lines.length);
  const first = windowStart(profiles.length, selected, room);
  profiles.slice(first, first + room).forEach((p, n) => {
    const active = p.name === status.active_profile;
    const chosen = first + n === selected;
    const text = `${chosen ? '›' : ' '}${active ? '● ' : '  '}${fit(p.name, Math.max(nameWidth, 22))}${(p.builtin ? 'built-in' : 'custom').padEnd(10)}${p.description}`;
    lines.push(line(p.name, [{ text, inverse: chosen, color: active ? 'magenta' : undefined }], width));
  });
  return column('chaos', lines, width, height);
}
