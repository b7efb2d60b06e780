import { GraphQLError, type GraphQLFormattedError } from 'graphql';

/**
 * errors[].extensions.code of the GraphQL mock's answers. The standard failures use Apollo
 * Server's well-known codes, which clients already branch on; the mock's own limits use the
 * catalogue's codes (common/errors.ts), which give them an HTTP status and a gRPC code.
 *
 * An operation name the document does not define is Apollo's OPERATION_RESOLUTION_FAILURE (what
 * Apollo Server 4 answers for "Unknown operation named …" and for a missing name among several).
 */
export const GRAPHQL_CODES = {
  PARSE_FAILED: 'GRAPHQL_PARSE_FAILED',
  VALIDATION_FAILED: 'GRAPHQL_VALIDATION_FAILED',
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  OPERATION_RESOLUTION_FAILURE: 'OPERATION_RESOLUTION_FAILURE',
  INTROSPECTION_DISABLED: 'INTROSPECTION_DISABLED',
  DEPTH: 'MOCK_ERR_GRAPHQL_DEPTH',
  COMPLEXITY: 'MOCK_ERR_GRAPHQL_COMPLEXITY',
  ALIASES: 'MOCK_ERR_GRAPHQL_ALIASES',
  /** A document past graphql.max_tokens (its parse stopped). */
  TOKENS: 'MOCK_ERR_GRAPHQL_TOKENS',
  /** A mutation's object larger than graphql.max_store_mb. */
  STORE_OBJECT_TOO_LARGE: 'MOCK_ERR_GRAPHQL_STORE_OBJECT_TOO_LARGE',
  /** Nested lists that would make an answer of more than MAX_LIST_ITEMS items. */
  TOO_LARGE: 'MOCK_ERR_GRAPHQL_TOO_LARGE',
  /** A lookup by id of an object a mutation deleted, where the field is non-null. */
  NOT_FOUND: 'NOT_FOUND',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;

export type GraphqlErrorCode = (typeof GRAPHQL_CODES)[keyof typeof GRAPHQL_CODES];

/** The same error with `code` in its extensions (kept when it has one already and `keep` is true); locations and path kept. */
export function withCode(error: GraphQLError, code: string, keep = false): GraphQLError {
  const existing = error.extensions?.code;
  if (keep && typeof existing === 'string') return error;
  const coded = new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: { ...error.extensions, code },
  });
  // graphql-jit's errors carry locations without nodes or a source
  if (coded.locations === undefined && error.locations !== undefined) (coded as { locations?: GraphQLFormattedError['locations'] }).locations = error.locations;
  return coded;
}
