/**
 * The admin API is called from dashboards on other origins. No cookies are involved (tokens travel
 * in headers), so any origin may call it.
 */
export const CORS_HEADERS: Array<[string, string]> = [
  ['access-control-allow-origin', '*'],
  ['access-control-expose-headers', 'content-type'],
];

export const PREFLIGHT_HEADERS: Array<[string, string]> = [
  ...CORS_HEADERS,
  ['access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS'],
  ['access-control-allow-headers', 'authorization, content-type, x-mock-management-token'],
  ['access-control-max-age', '600'],
];
