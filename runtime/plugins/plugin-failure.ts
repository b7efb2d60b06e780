import type { ProblemCode, ProblemParams } from '../../common/errors.js';

type FailureCode = 'MOCK_ERR_PLUGIN_FAILED' | 'MOCK_ERR_PLUGIN_TIMEOUT' | 'MOCK_ERR_PLUGIN_DISABLED';

/**
 * A plugin call that gave no usable answer: thrown from wherever the call was made (a template, a
 * stage), and answered by the dispatch with the catalogue's problem, so the request that paid for
 * it gets a 502 and nothing else does.
 */
export class PluginFailure<C extends FailureCode = FailureCode> extends Error {
  constructor(
    readonly code: C & ProblemCode,
    readonly params: ProblemParams<C>,
    message: string,
  ) {
    super(message);
    this.name = 'PluginFailure';
  }
}
