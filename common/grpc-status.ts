/** gRPC status codes (grpc/doc/statuscodes.md), by name. */
export const GRPC = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcStatus = (typeof GRPC)[keyof typeof GRPC];

/**
 * The gRPC status of an HTTP status that no catalogue entry names (an override's or a runtime
 * mock's 4xx/5xx): the HTTP-to-gRPC mapping of grpc/doc/http-grpc-status-mapping.md, widened to
 * the statuses a mock answers with.
 */
export function grpcOfHttp(status: number): GrpcStatus {
  if (status < 400) return GRPC.OK;
  switch (status) {
    case 400:
    case 422:
      return GRPC.INVALID_ARGUMENT;
    case 401:
      return GRPC.UNAUTHENTICATED;
    case 403:
      return GRPC.PERMISSION_DENIED;
    case 404:
      return GRPC.NOT_FOUND;
    case 408:
    case 504:
      return GRPC.DEADLINE_EXCEEDED;
    case 409:
      return GRPC.ABORTED;
    case 412:
      return GRPC.FAILED_PRECONDITION;
    case 413:
    case 429:
      return GRPC.RESOURCE_EXHAUSTED;
    case 501:
      return GRPC.UNIMPLEMENTED;
    case 502:
    case 503:
      return GRPC.UNAVAILABLE;
    default:
      return status < 500 ? GRPC.FAILED_PRECONDITION : GRPC.INTERNAL;
  }
}
