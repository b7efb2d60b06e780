/** One segment of a path template, classified once at build time. */
export type Segment =
  | { kind: 'static'; value: string }
  | { kind: 'param'; prefix: string; suffix: string; name: string }
  /** Several parameters in one segment: `literals` is the text around them (`{a}-{b}.csv`: '', '-', '.csv'). */
  | { kind: 'pattern'; literals: string[]; names: string[] }
  | { kind: 'rest' };

/** `/pets/{id}.json` -> static `pets`, param `id` with suffix `.json`; a trailing `**` matches the rest. */
export function parseTemplate(path: string): Segment[] {
  const parts = path.split('/').slice(1);
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((part, i) => {
    if (part === '**' && i === parts.length - 1) return { kind: 'rest' };
    const names = [...part.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
    if (names.length === 0) return { kind: 'static', value: part };
    if (names.length === 1) {
      const open = part.indexOf('{');
      const close = part.indexOf('}');
      return { kind: 'param', prefix: part.slice(0, open), suffix: part.slice(close + 1), name: names[0] };
    }
    return { kind: 'pattern', literals: part.split(/\{[^}]*\}/), names };
  });
}

/** Parameter names a template captures, in order. */
export function paramNames(segments: Segment[]): string[] {
  return segments.flatMap((s) => (s.kind === 'param' ? [s.name] : s.kind === 'pattern' ? s.names : s.kind === 'rest' ? ['**'] : []));
}

/** Identity of a segment for tree building: parameter names do not matter, shapes do. */
export function segmentKey(s: Segment): string {
  switch (s.kind) {
    case 'static':
      return `s:${s.value}`;
    case 'param':
      return `p:${s.prefix}\u0000${s.suffix}`;
    case 'pattern':
      return `r:${JSON.stringify(s.literals)}`;
    case 'rest':
      return 'rest';
  }
}
