import { GraphQLError } from 'graphql';
import { PROBLEMS } from '../../../common/errors.js';

/** List items one answer may hold: nested lists multiply (5 per list, 8 levels: 390,625 objects). */
export const MAX_LIST_ITEMS = 50_000;

/**
 * List items the answer being computed may still add. Answers are computed synchronously, one
 * at a time: the budget is renewed before each (begin), and after each synchronous run anyway
 * (a microtask), for whoever executes the schema without the engine.
 */
export class ListBudget {
  private left = MAX_LIST_ITEMS;
  private renewal = false;
  private readonly renew = (): void => {
    this.renewal = false;
    this.left = MAX_LIST_ITEMS;
  };

  /** `maxLength`: the configured list length the refusal names. */
  constructor(private readonly maxLength: number) {}

  /** Before computing an answer: its list items are counted from zero. */
  begin(): void {
    this.left = MAX_LIST_ITEMS;
  }

  /** Counts n list items against the answer's budget; past it, the answer fails with MOCK_ERR_GRAPHQL_TOO_LARGE. */
  spend(n: number): void {
    if (!this.renewal) {
      this.renewal = true;
      queueMicrotask(this.renew);
    }
    if ((this.left -= n) < 0) {
      this.left = MAX_LIST_ITEMS; // the next answer, if this one is abandoned mid-way
      throw new GraphQLError(PROBLEMS.MOCK_ERR_GRAPHQL_TOO_LARGE.detail({ max: MAX_LIST_ITEMS, length: this.maxLength }), {
        extensions: { code: 'MOCK_ERR_GRAPHQL_TOO_LARGE' },
      });
    }
  }
}
