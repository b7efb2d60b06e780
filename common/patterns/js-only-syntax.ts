/**
 * JavaScript regular-expression constructs that have no linear-time implementation, found by a
 * scan that skips escapes and character classes. RE2 rejects them too, but with messages such as
 * "invalid named capture" for a lookbehind; naming the construct tells the user what to rewrite.
 */
export function backtrackingConstruct(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      if (!inClass && next !== undefined && next >= '1' && next <= '9') return `a backreference (\\${next})`;
      if (!inClass && next === 'k' && source[i + 2] === '<') return 'a named backreference (\\k<…>)';
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      // a `]` right after `[` or `[^` is a literal member
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
    } else if (c === '(' && source[i + 1] === '?') {
      const group = source.slice(i + 2, i + 4);
      if (group.startsWith('=')) return 'a lookahead ((?=…))';
      if (group.startsWith('!')) return 'a negative lookahead ((?!…))';
      if (group === '<=') return 'a lookbehind ((?<=…))';
      if (group === '<!') return 'a negative lookbehind ((?<!…))';
      if (group.startsWith('>')) return 'an atomic group ((?>…))';
    }
  }
  return undefined;
}
