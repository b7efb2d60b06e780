import { bodyFormat, type IrOperation, type JsonSchema } from '../../compiler/index.js';
import { jsonType, type SchemaView } from './schema-view.js';
import type { Validators } from './validators.js';

export interface ResponseCheck {
  /** The documented response and media type the body was checked against, e.g. `200 application/json`. */
  against: string;
  /** Undefined when the body matches its schema. */
  mismatch?: string;
  /** --inject-response-violations: what was corrupted in a copy of the body, and whether the validator noticed. */
  injected?: { how: string; detected: boolean } | { how: null; detected: null };
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

  check(op: IrOperation, status: number, contentType: string, body: string): ResponseCheck | undefined {
    if (status < 200 || status >= 300 || body === '') return undefined;
    const type = contentType.split(';')[0].trim().toLowerCase();
    if (type === '' || bodyFormat(type) !== 'json') return undefined;
    const ri = responseIndex(op, status);
    if (ri === -1) return undefined;
    const contents = op.responses[ri].contents;
    let ci = contents.findIndex((c) => c.mediaType.toLowerCase() === type);
    if (ci === -1) ci = contents.findIndex((c) => c.mediaType === '*/*' || c.mediaType.toLowerCase() === `${type.split('/')[0]}/*`);
    if (ci === -1) return undefined;
    const check = this.validators.response(op, ri, ci);
    if (check === undefined) return undefined;
    const against = `${op.responses[ri].status} ${contents[ci].mediaType}`;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (e) {
      return { against, mismatch: `body is not JSON: ${(e as Error).message}` };
    }
    const result: ResponseCheck = { against, mismatch: check(value) };
    if (this.inject) {
      const corrupted = corrupt(value, contents[ci].schema, this.view);
      result.injected = corrupted === undefined ? { how: null, detected: null } : { how: corrupted.how, detected: check(corrupted.value) !== undefined };
    }
    return result;
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
