const SHAPE = /^https?:\/\/[^\s/?#]/i;

/**
 * What is wrong with an upstream URL, or undefined: the one check of proxy.upstream_url,
 * --proxy-target and MOCK_PROXY_UPSTREAM at start, and of POST /__mock/config/proxy and
 * POST /__mock/env at run time, so that no way of setting it stores one the proxy cannot use.
 * An http(s) URL with a host and a valid port; a path prefixes every forwarded request's, and a
 * query or fragment is refused (the request's own query replaces it).
 */
export function checkUpstreamUrl(value: unknown): string | undefined {
  const expected = 'expected an http(s) URL such as http://localhost:8080';
  if (typeof value !== 'string') return `${expected}, got ${JSON.stringify(value)}`;
  let url: URL | undefined;
  try {
    url = SHAPE.test(value) ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined) return `${expected}, got ${JSON.stringify(value)}`;
  if (url.search !== '' || url.hash !== '') return `expected an http(s) URL without a query or fragment (each request's own query is forwarded), got ${JSON.stringify(value)}`;
  return undefined;
}
