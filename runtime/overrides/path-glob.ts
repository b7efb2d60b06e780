import { compileLinear, escapeLiteral, type LinearPattern } from '../../common/patterns/index.js';
import { splitRequestPath } from '../mocks/index.js';

/**
 * A rule's `match.path` as a linear-time pattern over the decoded request path (see
 * `requestPath`): `**` as a whole segment spans any number of segments (none included), `*` any
 * text within one segment; without either the path must be equal. A trailing slash is ignored on
 * both sides. Throws PatternError for a glob too long to compile.
 */
export function compileGlob(pattern: string): LinearPattern {
  let source = '';
  for (const segment of splitRequestPath(pattern)) {
    source += segment === '**' ? '(?:/[^/]*)*' : `/${segment.split('*').map(escapeLiteral).join('[^/]*')}`;
  }
  return compileLinear(source === '' ? '/' : source, { whole: true });
}

/** The request path as globs see it: decoded segments, no trailing slash, `/` for the root. */
export function requestPath(url: string): string {
  return `/${splitRequestPath(url).join('/')}`;
}
