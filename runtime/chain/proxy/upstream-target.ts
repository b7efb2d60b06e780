import { hasDotSegment } from './dot-segments.js';

/**
 * The one place a request's path is joined to an upstream's: every relay (the HTTP proxy, its
 * rules, the reality continuum, the WebSocket relay) sends to what this answers. The upstream's
 * path prefixes the request's, the request's query replaces the upstream's; undefined for a path
 * with dot segments, which the URL parser would resolve while joining (/api/../../etc/passwd
 * would reach /etc/passwd, out of the upstream's path): the caller refuses the request with
 * MOCK_ERR_PROXY_DOT_SEGMENT.
 */
export function upstreamTarget(upstream: string, requestPath: string, rawQuery: string): URL | undefined {
  if (hasDotSegment(requestPath)) return undefined;
  const target = new URL(upstream);
  target.pathname = target.pathname.replace(/\/$/, '') + requestPath;
  target.search = rawQuery === '' ? '' : `?${rawQuery}`;
  return target;
}
