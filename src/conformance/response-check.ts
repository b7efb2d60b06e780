import { bodyFormat, type IrOperation, type JsonSchema } from '../../compiler/index.js';
import { jsonType, type SchemaView } from './schema-view.js';
import type { Check, Validators } from './validators.js';
import { framingOf, parseSseEvent, type SequenceFraming } from '../../common/sequence-items.js';

export interface ResponseCheck {
  /** The documented response and media type the body was checked against, e.g. `200 application/json`. */
  against: string;
  /** Undefined when the body matches its schema. */
  mismatch?: string;
  /** A streamed answer: how many items were read and checked, and when the first was complete. */
  stream?: { items: number; firstItemMs: number | null };
  /** --inject-response-violations: what was corrupted in a copy of the body, and whether the validator noticed. */
  injected?: { how: string; detected: boolean } | { how: null; detected: null };
}

/** What `ResponseChecker.answer` found: `mismatch` undefined when the answer fits (as far as it was checked). */
export interface AnswerCheck {
  /** The documented response (and media type) the answer was held against; undefined for an undocumented status. */
  against?: string;
  mismatch?: string;
  /** Why the body was not checked (status and media type were). */
  bodyUnchecked?: string;
}

/**
 * --validate-response-schemas: each 2xx JSON body against the schema its operation documents for
 * that status and media type. --inject-response-violations tests this checker itself: a copy of
 * each checked body is corrupted in a way its schema certainly forbids (a required property
 * removed, or a value of an undeclared type) and must be rejected; one that slips through is a
 * finding against the tester.
 */
export class ResponseChecker {
  constructor(
    private readonly validators: Validators,
    private readonly view: SchemaView,
    private readonly inject: boolean,
  ) {}

  check(op: IrOperation, status: number, contentType: string, body: string, items?: { items: string[]; firstItemMs: number | null }): ResponseCheck | undefined {
    if (status < 200 || status >= 300 || body === '') return undefined;
    const type = contentType.split(';')[0].trim().toLowerCase();
    const framing = framingOf(type);
    if (framing !== undefined && items !== undefined) return this.checkItems(op, status, type, framing, items);
    if (type === '' || bodyFormat(type) !== 'json') return undefined;
    const ri = responseIndex(op, status);
    if (ri === -1) return undefined;
    const contents = op.responses[ri].contents;
    const ci = contentIndex(contents, type);
    if (ci === -1) return undefined;
    const check = this.validators.response(op, ri, ci);
    if (check === undefined) return undefined;
    const against = `${op.responses[ri].status} ${contents[ci].mediaType}`;
    const parsed = parseJson(body);
    if ('error' in parsed) return { against, mismatch: parsed.error };
    const value = parsed.value;
    const result: ResponseCheck = { against, mismatch: check(value) };
    if (this.inject) {
      const corrupted = corrupt(value, contents[ci].schema, this.view);
      result.injected = corrupted === undefined ? { how: null, detected: null } : { how: corrupted.how, detected: check(corrupted.value) !== undefined };
    }
    return result;
  }

  /**
   * A whole answer of any status, as `mock bench` samples them under load: the status must be
   * documented (itself, its range or `default`), the media type among that response's, and a JSON
   * body must parse and fit the schema. `body` undefined: not kept (only status and media type are
   * checked); `bodiless`: the answer can have no body (HEAD, 204, 304), only its status is checked.
   * Bodies of other formats (XML, text, binary …) are not checked and say so in `bodyUnchecked`.
   */
  answer(op: IrOperation, status: number, contentType: string, body: string | undefined, bodiless = false): AnswerCheck {
    const ri = responseIndex(op, status);
    if (ri === -1) return { mismatch: `status ${status} is not documented (documented: ${op.responses.map((r) => r.status).join(', ') || 'none'})` };
    const response = op.responses[ri];
    if (bodiless) return { against: response.status };
    const contents = response.contents;
    const documented = contents.map((c) => c.mediaType).join(', ');
    const type = contentType.split(';')[0].trim().toLowerCase();
    if (contents.length === 0) return body === '' ? { against: response.status } : { against: response.status, mismatch: `a body where ${response.status} documents none` };
    if (type === '') return { against: response.status, mismatch: `${body === '' ? 'no body' : 'no content type'} (documented: ${documented})` };
    const ci = contentIndex(contents, type);
    if (ci === -1) return { against: response.status, mismatch: `content type ${type} is not documented for ${response.status} (documented: ${documented})` };
    const against = `${response.status} ${contents[ci].mediaType}`;
    if (body === undefined) return { against, bodyUnchecked: 'body not kept' };
    if (bodyFormat(type) !== 'json') return { against, bodyUnchecked: `${type} bodies are not checked (JSON ones are)` };
    const parsed = parseJson(body);
    if ('error' in parsed) return { against, mismatch: parsed.error };
    const mismatch = this.validators.response(op, ri, ci)?.(parsed.value);
    return mismatch === undefined ? { against } : { against, mismatch };
  }

  /** Each item read of a streamed answer against the item schema: the first that does not fit is the mismatch. */
  private checkItems(op: IrOperation, status: number, type: string, framing: SequenceFraming, read: { items: string[]; firstItemMs: number | null }): ResponseCheck | undefined {
    const items = this.itemCheck(op, status, type, framing);
    if (items === undefined) return undefined;
    const result: ResponseCheck = { against: items.against, stream: { items: read.items.length, firstItemMs: read.firstItemMs } };
    for (let i = 0; i < read.items.length; i++) {
      const mismatch = items.check?.(read.items[i]);
      if (mismatch !== undefined) return { ...result, mismatch: `item ${i + 1}: ${mismatch}` };
    }
    return result;
  }

  /**
   * What one item of a streamed answer (`status`, media type `type`) is checked against; `check`
   * tells why an item does not fit, and is undefined when there is no item schema to check.
   * Undefined when the operation documents no such answer.
   */
  itemCheck(op: IrOperation, status: number, type: string, framing: SequenceFraming): { against: string; check?: (item: string) => string | undefined } | undefined {
    const ri = responseIndex(op, status);
    if (ri === -1) return undefined;
    const contents = op.responses[ri].contents;
    const ci = contents.findIndex((c) => c.mediaType.split(';')[0].trim().toLowerCase() === type);
    if (ci === -1) return undefined;
    const check = this.validators.responseItem(op, ri, ci);
    const against = `${op.responses[ri].status} ${contents[ci].mediaType} (items)`;
    return check === undefined ? { against } : { against, check: (item) => itemMismatch(framing, item, check) };
  }
}

/**
 * Why one item does not fit: JSON items as they are; an SSE event as the event object the 3.2
 * guidance describes (`data` parsed when it is JSON, `event`, `id`, `retry`), or else as its data
 * alone (3.0/3.1 descriptions document the data).
 */
function itemMismatch(framing: SequenceFraming, text: string, check: Check): string | undefined {
  if (framing === 'sse') {
    const event = parseSseEvent(text);
    if (event === undefined) return 'an event without data';
    const data = jsonOr(event.data);
    const asEvent = check({ ...event, data });
    return asEvent === undefined || check(data) === undefined || check(event) === undefined ? undefined : asEvent;
  }
  const value = jsonOr(text, Symbol.for('not-json'));
  if (value === Symbol.for('not-json')) return `not JSON: ${text.slice(0, 80)}`;
  return check(value);
}

function jsonOr(text: string, fallback: unknown = text): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/** The content of `type` among a response's, else a wildcard one (any, or of its top-level type); -1 when none. */
function contentIndex(contents: IrOperation['responses'][number]['contents'], type: string): number {
  const ci = contents.findIndex((c) => c.mediaType.split(';')[0].trim().toLowerCase() === type);
  return ci !== -1 ? ci : contents.findIndex((c) => c.mediaType === '*/*' || c.mediaType.toLowerCase() === `${type.split('/')[0]}/*`);
}

function parseJson(body: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(body) };
  } catch (e) {
    return { error: `body is not JSON: ${(e as Error).message}` };
  }
}

function responseIndex(op: IrOperation, status: number): number {
  const code = String(status);
  const exact = op.responses.findIndex((r) => r.status === code);
  if (exact !== -1) return exact;
  const range = op.responses.findIndex((r) => r.status.toUpperCase() === `${code[0]}XX`);
  if (range !== -1) return range;
  return op.responses.findIndex((r) => r.status === 'default');
}

/** A copy of `value` its schema certainly rejects, or undefined when the schema is too permissive to tell. */
export function corrupt(value: unknown, schema: JsonSchema | undefined, view: SchemaView): { value: unknown; how: string } | undefined {
  const shape = view.shape(schema);
  if (shape && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const name = shape.mustHave.find((n) => n in object && !view.marked(shape.properties[n], 'writeOnly'));
    if (name !== undefined) {
      const { [name]: _removed, ...rest } = object;
      return { value: rest, how: `removed required property '${name}'` };
    }
  }
  const types = view.types(schema, true);
  if (types.length === 0) return undefined;
  const allowed = (v: unknown): boolean => {
    const t = jsonType(v);
    return types.includes(t) || (t === 'integer' && types.includes('number'));
  };
  const replacement = ['mock-injected-violation', 1234.5, true, ['mock-injected-violation'], { mock: 'injected-violation' }].find((c) => !allowed(c));
  if (replacement === undefined) return undefined;
  return { value: replacement, how: `body replaced by a JSON ${jsonType(replacement)} (schema type ${types.join('|')})` };
}
