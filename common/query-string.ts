/** Parses a raw query string into name -> values; `+` is a space, bad escapes are kept verbatim. */
export function parseQuery(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (raw === '') return out;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    const list = out.get(name);
    if (list) list.push(value);
    else out.set(name, [value]);
  }
  return out;
}

export function decode(s: string): string {
  if (!s.includes('%') && !s.includes('+')) return s;
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
