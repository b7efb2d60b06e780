import type { Logger } from 'pino';
import type { OperationMeta, Validate } from '../../../common/contract/index.js';
import { refusal, type Answer, type Exchange, type Refusal, type Validated, type ValidationIssue } from '../../chain/exchange/index.js';
import type { ValidationMode, ValidationOptions } from '../../serve-options.js';
import type { LiveSettings } from './live-settings.js';
import { checkParams } from './params.js';
import { findContent, parseBody } from './request-body.js';
import { parseItems, validateItems } from './request-items.js';
import { validateBody } from './validation-errors.js';
import { resolveModes } from './validation-modes.js';

/** Answers a refused request in its operation's words (the engine's refuse). */
export type Refuse = (ex: Exchange, index: number | undefined, refused: Refusal) => Answer;

/**
 * A request held against its operation: parameters, content type and body checked once per
 * exchange, and what the operation's validation mode makes of the issues (enforce refuses, warn
 * logs, off skips).
 */
export class RequestValidation {
  private modes: ValidationMode[];

  constructor(
    private readonly operations: OperationMeta[],
    private readonly validators: Record<string, Validate>,
    private readonly live: LiveSettings,
    private readonly logger: Logger,
    private readonly refuse: Refuse,
  ) {
    this.modes = resolveModes(operations, live.validation);
  }

  /** The validation mode of the operation at `index` (validation.overrides applied). */
  modeOf(index: number): ValidationMode {
    return this.modes[index];
  }

  /** Every operation's mode from new validation settings. */
  resolve(validation: ValidationOptions): void {
    this.modes = resolveModes(this.operations, validation);
  }

  /** The operation's validation of a request (Exchange.validated() calls it at most once). */
  readonly check = (ex: Exchange): Validated => {
    const op = this.operations[(ex.match as { index: number }).index];
    const { headers } = ex;
    const issues: ValidationIssue[] = [];
    let params: Validated['params'] = { path: ex.params };
    if (op.paramsValidator !== null) {
      const read = checkParams(op, this.validators[op.paramsValidator], ex.params, ex.query, headers);
      params = read.params;
      if (read.issues !== undefined) issues.push(...read.issues);
    }
    const hasBody = ex.body !== undefined && ex.body.length > 0;
    if (op.body === null) return hasBody ? { params, body: undefined, issues, unsupportedType: { given: headers['content-type'], accepted: [] } } : { params, body: undefined, issues };
    if (!hasBody) {
      if (op.body.required) issues.push({ location: 'body', name: '', message: 'request body is required', keyword: 'required' });
      return { params, body: undefined, issues };
    }
    const ci = findContent(op.body.contents, headers['content-type']);
    if (ci === -1) return { params, body: undefined, issues, unsupportedType: { given: headers['content-type'], accepted: op.body.contents.map((c) => c.type) } };
    const meta = op.body.contents[ci];
    const parsed = meta.sequence !== undefined ? parseItems(meta.sequence.framing, ex.body as Buffer) : parseBody(meta, ex.body as Buffer, ex.formParts);
    if (!parsed.ok) {
      issues.push({ location: 'body', name: '', message: parsed.error, keyword: 'parse' });
      return { params, body: undefined, issues };
    }
    if (parsed.issues !== undefined) issues.push(...parsed.issues);
    const itemValidator = meta.sequence?.itemValidator;
    if (itemValidator != null && Array.isArray(parsed.value)) validateItems(this.validators[itemValidator], parsed.value, issues);
    const validate = meta.validator === null ? undefined : this.validators[meta.validator];
    if (validate !== undefined) validateBody(validate, parsed.value, issues);
    return { params, body: parsed.value, issues };
  };

  /** What `mode` makes of a checked request: the refusal in enforce mode; in warn mode a warning and undefined (accepted). */
  judge(op: OperationMeta, index: number, mode: ValidationMode, checked: Validated, ex: Exchange): Answer | undefined {
    const unsupported = checked.unsupportedType;
    if (unsupported !== undefined) {
      const { given, accepted } = unsupported;
      if (mode === 'enforce') return this.refuse(ex, index, refusal('MOCK_ERR_UNSUPPORTED_MEDIA_TYPE', { method: op.method, path: op.path, accepted: [...accepted], given }));
      if (accepted.length === 0) this.logger.warn({ operation: op.key, content_type: given }, 'request body sent to an operation that accepts none');
      else this.logger.warn({ operation: op.key, content_type: given }, `request content type not accepted (accepts ${accepted.join(', ')})`);
    }
    if (checked.issues.length > 0) {
      if (mode === 'enforce') return this.refuse(ex, index, this.validationProblem([...checked.issues]));
      this.logger.warn({ operation: op.key, errors: checked.issues }, 'request validation failed (warn mode: request accepted)');
    }
    return undefined;
  }

  private validationProblem(issues: ValidationIssue[]): Refusal {
    const status = this.live.validation.status_code;
    const errors = this.live.validation.aggregate_errors ? issues : issues.slice(0, 1);
    return refusal('MOCK_ERR_REQUEST_INVALID', { first: issues[0].message }, { status, extra: { errors } });
  }
}
