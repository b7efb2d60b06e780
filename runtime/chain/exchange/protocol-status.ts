import { PROBLEMS } from '../../../common/errors.js';
import { grpcOfHttp, type GrpcStatus } from '../../../common/grpc-status.js';
import type { Answer } from './answer.js';

/**
 * An answer's status as the gRPC server sends it (grpc-status): its catalogue entry's code when it
 * has one and keeps the entry's HTTP status, else its HTTP status mapped (an override's 404, a
 * runtime mock's 503, a fault injected with a status of the user's choosing: 503 → UNAVAILABLE,
 * 429 → RESOURCE_EXHAUSTED, 504 → DEADLINE_EXCEEDED).
 */
export const grpcStatusOf = (answer: Answer): GrpcStatus =>
  answer.code !== undefined && PROBLEMS[answer.code].status === answer.status ? PROBLEMS[answer.code].grpc : grpcOfHttp(answer.status);

/** errors[].extensions.code of a GraphQL answer: its catalogue code, else `HTTP_<status>` (an override's or a runtime mock's answer). */
export const graphqlCodeOf = (answer: Answer): string => answer.code ?? `HTTP_${answer.status}`;
