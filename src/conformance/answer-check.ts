import type { Ir, IrOperation } from '../../compiler/index.js';
import { ResponseChecker, type AnswerCheck } from './response-check.js';
import { SchemaView } from './schema-view.js';
import { Validators } from './validators.js';

/**
 * Whole answers checked against their operation's documented responses, with the probes' response
 * checker: what `mock bench` does with the plain answers it samples under load.
 */
export class AnswerValidator {
  private readonly checker: ResponseChecker;

  constructor(ir: Ir) {
    this.checker = new ResponseChecker(new Validators(ir), new SchemaView(ir.definitions), false);
  }

  /** See ResponseChecker.answer: `body` undefined when it was not kept; `bodiless` for HEAD, 204 and 304. */
  check(op: IrOperation, status: number, contentType: string, body: string | undefined, bodiless = false): AnswerCheck {
    return this.checker.answer(op, status, contentType, body, bodiless);
  }
}
