/**
 * CORS of the control surfaces: an allowed origin (see access-policy.ts) is echoed back, never
 * `*`, so a page on another site can neither send a write the server did not agree to (the
 * preflight fails) nor read an answer. Requests from other origins are refused before CORS matters.
 */
export function corsHeaders(origin: string | undefined): Array<[string, string]> {
  // the answer depends on Origin: caches must not hand one origin's answer to another
  if (origin === undefined) return [['vary', 'Origin']];
  return [
    ['access-control-allow-origin', origin],
    ['access-control-expose-headers', 'content-type, retry-after'],
    ['vary', 'Origin'],
  ];
}

export const PREFLIGHT_HEADERS: Array<[string, string]> = [
  ['access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS'],
  ['access-control-allow-headers', 'authorization, content-type, x-mock-admin-token, x-mock-management-token'],
  ['access-control-max-age', '600'],
];
