import { isUtf8 } from 'node:buffer';
import type { Logger } from 'pino';
import type { ContentEntry, OperationResponders, Validate } from '../../../common/contract/index.js';
import type { ValidationIssue } from '../../chain/exchange/index.js';
import { findResponse } from './find-response.js';
import type { LiveSettings } from './live-settings.js';
import { findContent } from './request-body.js';
import { validateBody } from './validation-errors.js';

/** An answer of an operation held against what its description documents (checkAnswer). */
export interface AnswerCheck {
  /** The documented response the status falls under (`200`, `2XX`, `default`); null when none does. */
  code: string | null;
  /** Every documented response code of the operation. */
  codes: string[];
  /** The documented media type the body was checked against; null when the body is empty, or its content type is not documented (see `types`). */
  type: string | null;
  /** The media types the response documents. */
  types: string[];
  /** What the body breaks of that media type's schema (JSON bodies). */
  issues: ValidationIssue[];
}

/** Answers held against the responses their description documents, with the server's own validators. */
export class AnswerChecks {
  constructor(
    private readonly operations: readonly OperationResponders[],
    private readonly validators: Record<string, Validate>,
    private readonly live: LiveSettings,
    private readonly logger: Logger,
  ) {}

  /** An answer (status, content type, body) of the operation at `index`: `mock verify-mocks` checks recorded answers with it. */
  check(index: number, status: number, contentType: string | undefined, body: Uint8Array): AnswerCheck {
    const { responses } = this.operations[index];
    const codes = responses.map((r) => r.code);
    const ri = findResponse(responses, String(status));
    if (ri === -1) return { code: null, codes, type: null, types: [], issues: [] };
    const { code, contents } = responses[ri];
    const types = contents.map((c) => c.type);
    const ci = body.byteLength === 0 ? -1 : findContent(contents, contentType);
    if (ci === -1) return { code, codes, type: null, types, issues: [] };
    const content = contents[ci];
    const issues: ValidationIssue[] = [];
    if (content.validator !== null) {
      const parsed = jsonOf(body);
      if ('error' in parsed) issues.push({ location: 'body', name: '', message: `response body is not valid JSON (${parsed.error})`, keyword: 'parse' });
      else validateBody(this.validators[content.validator], parsed.value, issues, 'response body');
    }
    return { code, codes, type: content.type, types, issues };
  }

  /** --validate-responses: warn-only, never changes the answer. */
  warnOnBody(content: ContentEntry, body: string): void {
    if (!this.live.validation.validate_responses || content.validator === null || content.format !== 'json') return;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      this.logger.warn({ content_type: content.type }, 'response body is not valid JSON');
      return;
    }
    this.warnOnValue(content, value);
  }

  warnOnValue(content: ContentEntry, value: unknown): void {
    if (content.validator === null) return;
    const validate = this.validators[content.validator];
    const issues: ValidationIssue[] = [];
    validateBody(validate, value, issues, 'response body');
    if (issues.length > 0) this.logger.warn({ validator: content.validator, errors: issues }, 'response does not match its schema');
  }

  /**
   * One item of a streamed answer against the item schema: a generated or documented item that
   * does not fit is warned about once per stream (`warned` says whether it was), whatever
   * validation.validate_responses says, since nothing else checks streamed items.
   */
  warnOnItem(validator: string | null, value: unknown, warned: boolean): boolean {
    if (validator === null || warned) return warned;
    const issues: ValidationIssue[] = [];
    validateBody(this.validators[validator], value, issues, 'item');
    if (issues.length === 0) return false;
    this.logger.warn({ validator, errors: issues }, 'a streamed item does not match its itemSchema');
    return true;
  }

  /** Whether a value matches the schema of a documented content (true when it has none). */
  conforms(content: ContentEntry, value: unknown): boolean {
    return content.validator === null || this.validators[content.validator](value) === true;
  }
}

/** JSON from bytes that must be UTF-8 (RFC 8259 8.1). */
function jsonOf(bytes: Uint8Array): { value: unknown } | { error: string } {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isUtf8(text)) return { error: 'not valid UTF-8' };
  try {
    return { value: JSON.parse(text.toString('utf8')) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
