import { sourceOfCode } from '../../../../common/answer-source.js';
import { PROBLEMS, type ProblemCode } from '../../../../common/errors.js';
import { httpOfGrpc } from '../../../../common/grpc-status.js';
import { grpcStatusOf, type Answer } from '../../../chain/exchange/index.js';

const JSON_TYPE: [string, string] = ['content-type', 'application/json'];

/** How google.rpc.Status carries a machine-readable reason: the catalogue code as a google.rpc.ErrorInfo. */
const errorInfo = (code: ProblemCode): Record<string, string> => ({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: code, domain: 'mock' });

/** A catalogue error of the bridge: the entry's HTTP status, google.rpc.Status JSON with its gRPC code, the code in X-Mock-Error-Code. */
export function catalogueAnswer(code: ProblemCode, message: string): Answer {
  const entry = PROBLEMS[code];
  return {
    status: entry.status,
    headers: [JSON_TYPE, ['x-mock-error-code', code]],
    body: JSON.stringify({ code: entry.grpc, message, details: [errorInfo(code)] }),
    code,
    error: message,
    source: sourceOfCode(code),
  };
}

/**
 * What a stage of the chain refused a call with (a rate limit, an injected fault, an open breaker),
 * as the bridge writes it: the stage's HTTP status and headers (Retry-After, X-Mock-Fault), the
 * body google.rpc.Status JSON with the status's gRPC code, as the gRPC port would end the call.
 */
export function chaosAnswer(refused: Answer): Answer {
  const message = refused.error ?? `HTTP ${refused.status}`;
  const headers = refused.headers.filter(([name]) => name !== 'content-type' && name !== 'content-length');
  return { ...refused, headers: [JSON_TYPE, ...headers], body: JSON.stringify({ code: grpcStatusOf(refused), message, details: refused.code === undefined ? [] : [errorInfo(refused.code)] }) };
}

/** A status the mock's rules answered with (google.rpc.Status JSON): its HTTP equivalent. */
export function statusAnswer(code: number, status: object, message: string): Answer {
  return { status: httpOfGrpc(code), headers: [JSON_TYPE], body: JSON.stringify(status), error: message, source: 'generated' };
}
