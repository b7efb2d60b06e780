import type { Answer, Exchange } from '../../chain/exchange/index.js';
import { OperationTally } from '../../control/metrics/index.js';
import { CallExchange } from '../../terminal/grpc/index.js';

/** What calls of methods the protos do not declare count under: one key, whatever paths clients send (a method path starts with `/`). */
export const UNKNOWN_METHOD = 'unknown';

/** gRPC calls by method path (`/routeguide.RouteGuide/GetFeature`): counts, failures (a status other than OK), latency. */
export class MethodStats extends OperationTally {
  constructor(private readonly modes: ReadonlyMap<string, string>) {
    super();
  }

  /** A call that ended (the dispatch's observe hook), under its method's route, or UNKNOWN_METHOD; a bridge request's path is its HTTP path: one no method answered is not a call. */
  observe = (ex: Exchange, _answer: Answer, durationMs: number): void => {
    const method = ex.route?.path ?? (ex instanceof CallExchange ? UNKNOWN_METHOD : undefined);
    if (method === undefined) return;
    const status = ex.keptLocals?.grpc?.status ?? 'UNKNOWN';
    this.add(method, this.modes.get(method) ?? 'unknown', status !== 'OK', durationMs, status);
  };
}
