import { compileLinear, escapeLiteral, type LinearPattern } from '../../common/patterns/index.js';
import { splitRequestPath, type TemplateSegment } from './path-pattern.js';

/**
 * The one path-glob dialect (override rules' match.path, validation.overrides keys, the request
 * log's path filter, the conditional proxy's and the continuum's patterns), as a linear-time
 * pattern over a path's decoded segments (see `requestPath`): `**` as a whole segment spans any
 * number of segments, none included (`/api/**` matches `/api`); `*` is any text within one
 * segment; everything else is literal, and without `*` the path must be equal. A trailing slash is
 * ignored on both sides; a glob may omit the leading slash. Throws PatternError for a glob too long
 * to compile.
 */
export function compileGlob(pattern: string): LinearPattern {
  let source = '';
  for (const segment of globSegments(pattern)) {
    source += segment === '**' ? '(?:/[^/]*)*' : `/${segment.split('*').map(escapeLiteral).join('[^/]*')}`;
  }
  return compileLinear(source === '' ? '/' : source, { whole: true });
}

/** The request path as globs see it: decoded segments, no trailing slash, `/` for the root. */
export function requestPath(url: string): string {
  return `/${splitRequestPath(url).join('/')}`;
}

/**
 * Whether some request path matches both the glob and a route's template (`templateSegments`),
 * so that a stage selecting requests by globs runs only on routes one of them can reach. A
 * template segment holding a parameter may be anything, so the answer errs towards yes.
 */
export function globMayReach(pattern: string, template: readonly TemplateSegment[]): boolean {
  const glob = globSegments(pattern).map((segment) =>
    segment === '**' ? null : segment.includes('*') ? compileLinear(segment.split('*').map(escapeLiteral).join('.*'), { whole: true }) : segment,
  );
  // memo[i][j]: glob[i..] and template[j..] can match one same rest of a path (O(n·m), paths are short)
  const memo = new Map<number, boolean>();
  const reach = (i: number, j: number): boolean => {
    const key = i * (template.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const g = i < glob.length ? glob[i] : undefined;
    const t = j < template.length ? template[j] : undefined;
    let result: boolean;
    if (g === undefined && t === undefined) result = true;
    else if (g === null) result = reach(i + 1, j) || (t !== undefined && reach(i, j + 1));
    else if (t !== undefined && typeof t !== 'string' && t.any === 'rest') result = reach(i, j + 1) || (g !== undefined && reach(i + 1, j));
    else if (g === undefined || t === undefined) result = false;
    else result = (typeof t !== 'string' || (typeof g === 'string' ? g === t : g.test(t))) && reach(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return reach(0, 0);
}

/** A glob's decoded segments, `**` kept as is. */
function globSegments(pattern: string): string[] {
  return splitRequestPath(pattern.startsWith('/') ? pattern : `/${pattern}`);
}
