import { redactUrlCredentials } from '../../../common/redacted.js';

const SHAPE = /^https?:\/\/[^\s/?#]/i;

/**
 * What is wrong with an upstream URL, or undefined: the one check of proxy.upstream_url,
 * --proxy-target and MOCK_PROXY_UPSTREAM at start, and of POST /__mock/config/proxy and
 * POST /__mock/env at run time, so that no way of setting it stores one the proxy cannot use.
 * An http(s) URL with a host and a valid port; a path prefixes every forwarded request's, and a
 * query or fragment is refused (the request's own query replaces it). The message shows the
 * value with its password as [redacted]: it reaches logs, the admin API's answers and terminals.
 */
export function checkUpstreamUrl(value: unknown): string | undefined {
  const expected = 'expected an http(s) URL such as http://localhost:8080';
  const got = JSON.stringify(typeof value === 'string' ? redactUrlCredentials(value) : value);
  if (typeof value !== 'string') return `${expected}, got ${got}`;
  let url: URL | undefined;
  try {
    url = SHAPE.test(value) ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined) return `${expected}, got ${got}`;
  if (url.search !== '' || url.hash !== '') return `expected an http(s) URL without a query or fragment (each request's own query is forwarded), got ${got}`;
  return undefined;
}
