/**
 * The one catalogue of errors users see. Each is one sentence naming the input and the fix;
 * codes are never reused once retired. Library errors are mapped to these at the boundary.
 */
export type MockErrorCode =
  | 'MOCK_ERR_SPEC_NOT_FOUND'
  | 'MOCK_ERR_SPEC_PARSE'
  | 'MOCK_ERR_SPEC_REF'
  | 'MOCK_ERR_SPEC_INVALID'
  | 'MOCK_ERR_SPEC_FETCH'
  | 'MOCK_ERR_ROUTE_COLLISION'
  | 'MOCK_ERR_CONFIG_NOT_FOUND'
  | 'MOCK_ERR_CONFIG_PARSE'
  | 'MOCK_ERR_CONFIG_INVALID'
  | 'MOCK_ERR_FLAG_INVALID'
  | 'MOCK_ERR_TEMPLATE'
  | 'MOCK_ERR_PORT_IN_USE'
  | 'MOCK_ERR_LISTEN'
  | 'MOCK_ERR_BUILD_STALE'
  | 'MOCK_ERR_BUILD_MISSING'
  | 'MOCK_ERR_BUILD_TAMPERED'
  | 'MOCK_ERR_NO_SPEC'
  | 'MOCK_ERR_OVERRIDES_INVALID'
  | 'MOCK_ERR_AUTH_CONFIG';

export class MockError extends Error {
  readonly code: MockErrorCode;
  readonly exitCode: number;

  constructor(code: MockErrorCode, message: string, exitCode = 1) {
    super(message);
    this.name = 'MockError';
    this.code = code;
    this.exitCode = exitCode;
  }
}

export const isMockError = (e: unknown): e is MockError => e instanceof MockError;
