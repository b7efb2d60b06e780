// The README is a landing page and the reference lives in docs/: every relative link in them
// reaches a file that exists and, when it names one, a heading of that file; and every page of
// docs/ is reachable from the README by following links.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';

const root = path.resolve(import.meta.dirname, '../..');
const pages = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const text = new Map(pages.map((p) => [p, readFileSync(path.join(root, p), 'utf8')]));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
const anchorsOf = (markdown) => {
  const seen = new Map();
  const out = new Set();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = !fence && /^#+\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = m[1].trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replaceAll(' ', '-');
    const n = seen.get(base) ?? -1;
    seen.set(base, n + 1);
    out.add(n < 0 ? base : `${base}-${n + 1}`);
  }
  return out;
};

/** Relative links outside code: [text](target) with no scheme. */
const linksOf = (markdown) => {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l));
};

t.test('every relative link reaches a file and a heading that exist', async (t) => {
  for (const [page, markdown] of text) {
    for (const target of linksOf(markdown)) {
      const [file, anchor] = target.split('#');
      const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      t.ok(existsSync(path.join(root, resolved)), `${page} → ${target}: ${resolved} exists`);
      if (anchor === undefined || !resolved.endsWith('.md') || !text.has(resolved)) continue;
      t.ok(anchorsOf(text.get(resolved)).has(anchor), `${page} → ${target}: #${anchor} is a heading of ${resolved}`);
    }
  }
});

t.test('every page of docs/ is reachable from the README', async (t) => {
  const reached = new Set(['README.md']);
  const queue = ['README.md'];
  while (queue.length > 0) {
    const page = queue.shift();
    for (const target of linksOf(text.get(page))) {
      const file = target.split('#')[0];
      if (file === '') continue;
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      if (text.has(resolved) && !reached.has(resolved)) {
        reached.add(resolved);
        queue.push(resolved);
      }
    }
  }
  for (const page of text.keys()) t.ok(reached.has(page), `${page} is reachable from the README`);
});

t.test('the README is a landing page a newcomer reads in minutes', async (t) => {
  const lines = text.get('README.md').split('\n').length;
  t.ok(lines <= 300, `README.md has ${lines} lines (the reference belongs in docs/)`);
});
