import { comment } from '../comment.js';
import type { Candidate, RouteNode } from './tree.js';

/**
 * Emits the router as one small function per tree node: a `switch` over static segments, then
 * parameter shapes in order of specificity, backtracking when a branch finds no route. Nothing
 * is scanned per request beyond the path's own segments.
 */
export function emitRouter(root: RouteNode): string {
  const terminals: string[] = [];
  const functions: string[] = [];
  let nodeCount = 0;
  let splitsSegments = false;

  const visit = (node: RouteNode, label: string): string => {
    const id = nodeCount++;
    const name = `n${id}`;
    const terminal = node.methods.size > 0 ? `t${terminals.length}` : undefined;
    if (terminal) terminals.push(`${comment(label || '/', true)}\nconst ${terminal}: Terminal = ${emitTerminal(node)};`);
    const children = [...node.children.values()];
    const statics = children.filter((c) => c.segment?.kind === 'static').sort((a, b) => cmp(staticValue(a), staticValue(b)));
    const allParams = children.filter((c) => c.segment?.kind === 'param').sort(bySpecificity);
    // literal-affixed params, then multi-parameter patterns, then the bare `{id}` that takes anything
    const params = allParams.filter((c) => !isBare(c));
    const bare = allParams.filter(isBare);
    const patterns = children.filter((c) => c.segment?.kind === 'pattern').sort((a, b) => cmp(patternKey(a), patternKey(b)));
    const rest = children.find((c) => c.segment?.kind === 'rest');

    const restT = rest ? restTerminal(rest) : undefined;
    const body: string[] = [];
    if (terminal || !restT) body.push(`  if (i === s.length) return ${terminal ?? 'undefined'};`);
    else body.push(`  if (i === s.length) { p.push(''); return ${restT}; }`);
    if (statics.length + allParams.length + patterns.length > 0) body.push('  const v = s[i];', '  let r: Terminal | undefined;');
    if (statics.length > 0) {
      body.push('  switch (v) {');
      for (const child of statics) {
        const fn = visit(child, `${label}/${staticValue(child)}`);
        body.push(`    case ${JSON.stringify(staticValue(child))}: if ((r = ${fn}(s, i + 1, p)) !== undefined) return r; break;`);
      }
      body.push('  }');
    }
    const emitParam = (child: RouteNode): void => {
      const seg = child.segment as { prefix: string; suffix: string; name: string };
      const fn = visit(child, `${label}/${seg.prefix}{${seg.name}}${seg.suffix}`);
      const min = seg.prefix.length + seg.suffix.length;
      const test = [`v.length > ${min}`];
      if (seg.prefix) test.push(`v.startsWith(${JSON.stringify(seg.prefix)})`);
      if (seg.suffix) test.push(`v.endsWith(${JSON.stringify(seg.suffix)})`);
      const value = min === 0 ? 'v' : `v.slice(${seg.prefix.length}, v.length - ${seg.suffix.length})`;
      body.push(`  if (${test.join(' && ')}) { p.push(${value}); if ((r = ${fn}(s, i + 1, p)) !== undefined) return r; p.pop(); }`);
    };
    params.forEach(emitParam);
    for (const child of patterns) {
      const seg = child.segment as { literals: string[]; names: string[] };
      const fn = visit(child, `${label}/${seg.literals.map((text, k) => (k === 0 ? text : `{${seg.names[k - 1]}}${text}`)).join('')}`);
      const literals = `l${functions.length}_${id}`;
      functions.push(`const ${literals} = ${JSON.stringify(seg.literals)};`);
      body.push(`  { const n = p.length; if (splitSegment(v, ${literals}, p) && (r = ${fn}(s, i + 1, p)) !== undefined) return r; p.length = n; }`);
      splitsSegments = true;
    }
    bare.forEach(emitParam);
    body.push(restT ? `  p.push(s.slice(i).join('/'));\n  return ${restT};` : '  return undefined;');
    functions.push(`${comment(label || '/', true)}\nfunction ${name}(s: string[], i: number, p: string[]): Terminal | undefined {\n${body.join('\n')}\n}`);
    return name;

    function restTerminal(node: RouteNode): string {
      const t = `t${terminals.length}`;
      terminals.push(`${comment(`${label}/**`, true)}\nconst ${t}: Terminal = ${emitTerminal(node)};`);
      return t;
    }
  };

  visit(root, '');
  return [
    terminals.join('\n'),
    '',
    ...(splitsSegments ? [SPLIT_SEGMENT, ''] : []),
    functions.join('\n\n'),
    '',
    '/** Hot path: `s` is the request path split on "/" (s[0] is ""); `p` receives parameter values in order. */',
    'export function match(s: string[], p: string[]): Terminal | undefined {',
    '  return n0(s, 1, p);',
    '}',
  ].join('\n');
}

function emitTerminal(node: RouteNode): string {
  const any = node.methods.get('*') ?? [];
  const concrete = [...node.methods.keys()].filter((m) => m !== '*').sort();
  const methods = concrete.map((m) => `${JSON.stringify(m)}: ${emitCandidates([...(node.methods.get(m) ?? []), ...any])}`);
  const allow = any.length > 0 ? 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT' : [...new Set([...concrete, ...(concrete.includes('GET') ? ['HEAD'] : [])])].sort().join(', ');
  return `{ methods: { ${methods.join(', ')} }, any: ${any.length > 0 ? emitCandidates(any) : 'null'}, allow: ${JSON.stringify(allow)} }`;
}

function emitCandidates(list: Candidate[]): string {
  const sorted = [...list].sort((a, b) => a.rank - b.rank || a.index - b.index);
  return `[${sorted.map((c) => `{ kind: "${c.kind}", index: ${c.index}, names: ${JSON.stringify(c.names)} }`).join(', ')}]`;
}

const staticValue = (n: RouteNode): string => (n.segment as { value: string }).value;
const patternKey = (n: RouteNode): string => JSON.stringify((n.segment as { literals: string[] }).literals);

/**
 * Emitted once where a segment holds several parameters. A regular expression such as
 * `^(.+?)-(.+?)$` would find the values by backtracking, in time polynomial in the segment's
 * length (four parameters and 400 characters took a second): the description writes the
 * template, the client the segment.
 */
const SPLIT_SEGMENT = `/**
 * The values of a segment with several parameters (\`{a}-{b}.csv\`, literals '', '-', '.csv') as
 * \`^(.+?)-(.+?)\\.csv$\` captures them, each the shortest that lets the rest match, in linear time:
 * last[j] is the latest start of literal j that leaves a character for every later parameter, and
 * each value ends at the first occurrence of the next literal no later than that.
 */
function splitSegment(v: string, literals: readonly string[], p: string[]): boolean {
  const k = literals.length - 1;
  const head = literals[0];
  const tail = literals[k];
  if (v.length < head.length + k + tail.length || !v.startsWith(head) || !v.endsWith(tail)) return false;
  const last: number[] = [];
  last[k] = v.length - tail.length;
  for (let j = k - 1; j >= 1; j--) {
    const bound = last[j + 1] - 1 - literals[j].length;
    last[j] = bound < 0 ? -1 : v.lastIndexOf(literals[j], bound);
    if (last[j] < 0) return false;
  }
  let at = head.length;
  for (let j = 1; j < k; j++) {
    const found = v.indexOf(literals[j], at + 1);
    if (found < 0 || found > last[j]) return false;
    p.push(v.slice(at, found));
    at = found + literals[j].length;
  }
  if (last[k] - at < 1) return false;
  p.push(v.slice(at, last[k]));
  return true;
}`;
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Params with a longer literal prefix/suffix are tried before bare `{id}`. */
function bySpecificity(a: RouteNode, b: RouteNode): number {
  const sa = a.segment as { prefix: string; suffix: string };
  const sb = b.segment as { prefix: string; suffix: string };
  return sb.prefix.length + sb.suffix.length - (sa.prefix.length + sa.suffix.length) || cmp(sa.prefix + '\u0000' + sa.suffix, sb.prefix + '\u0000' + sb.suffix);
}

const isBare = (n: RouteNode): boolean => {
  const seg = n.segment as { prefix: string; suffix: string };
  return seg.prefix === '' && seg.suffix === '';
};
