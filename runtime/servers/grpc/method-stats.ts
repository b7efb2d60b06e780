import type { Answer, Exchange } from '../../chain/exchange/index.js';
import { OperationTally } from '../../control/metrics/index.js';

/** gRPC calls by method path (`/routeguide.RouteGuide/GetFeature`): counts, failures (a status other than OK), latency. */
export class MethodStats extends OperationTally {
  constructor(private readonly modes: ReadonlyMap<string, string>) {
    super();
  }

  /** A call that ended (the dispatch's observe hook). */
  observe = (ex: Exchange, _answer: Answer, durationMs: number): void => {
    const status = ex.keptLocals?.grpc?.status ?? 'UNKNOWN';
    this.add(ex.path, this.modes.get(ex.path) ?? 'unknown', status !== 'OK', durationMs);
  };
}
