import { splitRequestPath } from '../mocks/index.js';

/**
 * A rule's `match.path` as a regex over the decoded request path (see `requestPath`): `**` as a
 * whole segment spans any number of segments (none included), `*` any text within one segment;
 * without either the path must be equal. A trailing slash is ignored on both sides.
 */
export function compileGlob(pattern: string): RegExp {
  let source = '';
  for (const segment of splitRequestPath(pattern)) {
    source += segment === '**' ? '(?:/[^/]*)*' : `/${segment.split('*').map(escapeRegex).join('[^/]*')}`;
  }
  return new RegExp(`^${source === '' ? '/' : source}$`);
}

/** The request path as globs see it: decoded segments, no trailing slash, `/` for the root. */
export function requestPath(url: string): string {
  return `/${splitRequestPath(url).join('/')}`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
