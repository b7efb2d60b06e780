// A fixture in the file format of common/fixtures, for tests: GET /v1/pets answering {"id":1}, with overrides.
export const fixture = (extra = {}) => ({
  fingerprint: { method: 'GET', path: '/v1/pets', query_params: {}, headers: {} },
  timestamp: '2025-01-15T09:30:00Z',
  status_code: 200,
  response_headers: { 'content-type': 'application/json' },
  response_body: '{"id":1}',
  metadata: {},
  ...extra,
});
