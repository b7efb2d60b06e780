import type { Answer, Exchange } from '../../chain/exchange/index.js';
import { OperationTally } from '../../control/metrics/index.js';

/** Requests that never got as far as an operation (malformed, refused by chaos before it ran). */
const NO_OPERATION = '(none)';
const ANONYMOUS = '(anonymous)';

/** GraphQL operations by type and name (`query GetUser`): counts, errors, latency. */
export class OperationStats extends OperationTally {
  /** An answered HTTP request (the dispatch's observe hook). */
  observe = (ex: Exchange, answer: Answer, durationMs: number): void => {
    const operation = ex.keptLocals?.graphql;
    const failed = answer.status >= 400 || operation?.errors === true;
    if (operation === undefined) this.add(NO_OPERATION, 'none', failed, durationMs);
    else this.add(`${operation.type} ${operation.name ?? ANONYMOUS}`, operation.type, failed, durationMs);
  };

  /** An operation sent over the WebSocket (most often a subscription) that ended. */
  socketOperationEnded(name: string | null, type: string, failed: boolean, durationMs: number): void {
    this.add(`${type} ${name ?? ANONYMOUS}`, type, failed, durationMs);
  }
}
