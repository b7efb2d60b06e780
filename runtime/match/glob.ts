import { compileLinear, escapeLiteral, type LinearPattern } from '../../common/patterns/index.js';
import { splitRequestPath } from './path-pattern.js';

/**
 * The one path-glob dialect (override rules' match.path, validation.overrides keys, the request
 * log's path filter), as a linear-time pattern over a path's decoded segments (see `requestPath`):
 * `**` as a whole segment spans any number of segments, none included (`/api/**` matches `/api`);
 * `*` is any text within one segment; everything else is literal, and without `*` the path must be
 * equal. A trailing slash is ignored on both sides; a glob may omit the leading slash. Throws
 * PatternError for a glob too long to compile.
 */
export function compileGlob(pattern: string): LinearPattern {
  let source = '';
  for (const segment of splitRequestPath(pattern.startsWith('/') ? pattern : `/${pattern}`)) {
    source += segment === '**' ? '(?:/[^/]*)*' : `/${segment.split('*').map(escapeLiteral).join('[^/]*')}`;
  }
  return compileLinear(source === '' ? '/' : source, { whole: true });
}

/** The request path as globs see it: decoded segments, no trailing slash, `/` for the root. */
export function requestPath(url: string): string {
  return `/${splitRequestPath(url).join('/')}`;
}
