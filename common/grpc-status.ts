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

/** A gRPC status's HTTP equivalent (google.rpc.Code's mapping; 499 for CANCELLED), for the request log. */
export function httpOfGrpc(code: number): number {
  switch (code) {
    case GRPC.OK:
      return 200;
    case GRPC.CANCELLED:
      return 499;
    case GRPC.INVALID_ARGUMENT:
    case GRPC.FAILED_PRECONDITION:
    case GRPC.OUT_OF_RANGE:
      return 400;
    case GRPC.DEADLINE_EXCEEDED:
      return 504;
    case GRPC.NOT_FOUND:
      return 404;
    case GRPC.ALREADY_EXISTS:
    case GRPC.ABORTED:
      return 409;
    case GRPC.PERMISSION_DENIED:
      return 403;
    case GRPC.RESOURCE_EXHAUSTED:
      return 429;
    case GRPC.UNIMPLEMENTED:
      return 501;
    case GRPC.UNAVAILABLE:
      return 503;
    case GRPC.UNAUTHENTICATED:
      return 401;
    default:
      return 500;
  }
}

/** The name of a status code (NOT_FOUND), or its number as text when it has none. */
/** Whether `name` is a gRPC status name (OK, NOT_FOUND, …): the request log's filters take one. */
export const isGrpcStatusName = (name: string): name is keyof typeof GRPC => Object.hasOwn(GRPC, name);

export const grpcStatusName = (code: number): string => Object.entries(GRPC).find(([, value]) => value === code)?.[0] ?? String(code);
