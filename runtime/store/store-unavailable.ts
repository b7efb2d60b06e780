import type { StoreName } from './store.js';

/**
 * A shared store that cannot be reached (Redis lost, or slower than its command timeout): the
 * request path answers 503 MOCK_ERR_STATE_STORE_UNAVAILABLE (fails closed), never a guess made
 * without the shared state.
 */
export class StoreUnavailable extends Error {
  constructor(
    readonly store: StoreName,
    reason: string,
  ) {
    super(`${store}: the state store cannot be reached (${reason})`);
  }
}
