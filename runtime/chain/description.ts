import type { CallbackMeta, OperationMeta, TemplateRuntime } from '../../common/contract/index.js';
import type { ValidationMode, ValidationOptions } from '../serve-options.js';
import type { Answer, Exchange, Refusal, ValidationIssue } from './exchange/index.js';

/** An answer held against the response its operation documents (the OpenAPI engine's AnswerCheck). */
export interface DocumentedAnswer {
  /** The documented response the status falls under (`200`, `2XX`, `default`); null when none does. */
  readonly code: string | null;
  readonly codes: readonly string[];
  /** The documented media type the body was checked against; null when the body is empty or its type undocumented. */
  readonly type: string | null;
  readonly types: readonly string[];
  readonly issues: readonly ValidationIssue[];
}

/**
 * What the stages of the `description` kind read of the API description being served: the OpenAPI
 * engine implements it, and the chain never imports that terminal. Routes are the description's
 * operations (by index), then its custom routes.
 */
export interface Description {
  /** The operations (by index) and the descriptions' base paths. */
  readonly build: {
    readonly operations: readonly OperationMeta[];
    readonly specs: readonly { readonly basePath: string }[];
    /** Requests to send after routes answer; absent when no route declares any. */
    readonly callbacks?: readonly CallbackMeta[];
  };
  /** By `build.callbacks` entry, then by its `parameters` entry: the generator (seeded like the answers') of a parameter the description gives no value for, else null. */
  readonly callbackValues: ReadonlyArray<ReadonlyArray<(() => unknown) | null>>;
  /** The description's answer to a routed exchange (validate by the mode, then respond): the continuum's mock side. */
  respond(ex: Exchange): Answer;
  /** A refused request answered as validation.error_body says: the operation's documented response, else mock's problem body. */
  refuse(ex: Exchange, index: number | undefined, refused: Refusal): Answer;
  /** The validation mode of the operation at `index`. */
  modeOf(index: number): ValidationMode;
  readonly validationOptions: Pick<ValidationOptions, 'security' | 'status_code'>;
  /** What an answer (status, content type, body) of the operation at `index` breaks of its documented response. */
  checkAnswer(index: number, status: number, contentType: string | undefined, body: Uint8Array): DocumentedAnswer;
  /** Whether templates in answers expand (runtime mocks render as the description's answers do). */
  readonly templateExpansion: boolean;
  /** Template functions seeded like the description's own. */
  readonly templateRuntime: TemplateRuntime;
}
