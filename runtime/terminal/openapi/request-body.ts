import { isUtf8 } from 'node:buffer';
import type { BodyMeta, FieldEncoding, ValueShape } from '../../../common/contract/index.js';
import { bracketPath, coerceShape, setPath } from '../../../common/coerce.js';
import { ownKey, ReservedKeyError } from '../../../common/reserved-keys.js';
import { parseQuery } from '../../chain/exchange/index.js';
import type { FormParts, ValidationIssue } from '../../chain/exchange/index.js';

/** Index of the declared request media type that accepts `contentType`, or -1 (415). */
export function findContent(contents: ReadonlyArray<{ type: string }>, contentType: string | undefined): number {
  if (contentType === undefined || contentType === '') return 0;
  // the commonest case, a bare type exactly as declared, without parsing either
  for (let i = 0; i < contents.length; i++) if (contents[i].type === contentType) return i;
  const type = contentType.split(';')[0].trim().toLowerCase();
  const [major] = type.split('/');
  let wildcard = -1;
  for (let i = 0; i < contents.length; i++) {
    const declared = contents[i].type.split(';')[0].trim();
    if (declared === type) return i;
    if (wildcard === -1 && (declared === '*/*' || declared === `${major}/*`)) wildcard = i;
  }
  return wildcard;
}

/** `issues`: what parsing alone finds wrong (form fields sent empty that may not be). */
export type ParsedBody = { ok: true; value: unknown; issues?: ValidationIssue[] } | { ok: false; error: string };

/** Parses a body for validation: JSON, or url-encoded or multipart fields (`parts`: Exchange.formParts) coerced to their schema kinds. */
export function parseBody(meta: BodyMeta, raw: Buffer, parts?: FormParts | string): ParsedBody {
  if (meta.format === 'json') {
    // RFC 8259 8.1: JSON exchanged between systems is UTF-8; toString would hide bad bytes as U+FFFD
    if (!isUtf8(raw)) return { ok: false, error: 'malformed JSON body: not valid UTF-8' };
    try {
      return { ok: true, value: JSON.parse(raw.toString('utf8')) };
    } catch (e) {
      return { ok: false, error: `malformed JSON body: ${(e as Error).message}` };
    }
  }
  if (meta.format === 'form' || meta.format === 'multipart') {
    const fields = meta.format === 'form' ? parseQuery(raw.toString('utf8')) : parts;
    if (typeof fields !== 'object') return { ok: false, error: fields ?? 'multipart body not read (Exchange.readParts)' };
    let value: Record<string, unknown>;
    try {
      value = decodeFields(fields, meta.shape ?? 'any', meta.encoding ?? {});
    } catch (e) {
      if (e instanceof ReservedKeyError) return { ok: false, error: e.message };
      throw e;
    }
    const issues = meta.nonEmpty === undefined ? undefined : emptyFields(fields, meta.nonEmpty);
    return issues === undefined ? { ok: true, value } : { ok: true, value, issues };
  }
  return { ok: true, value: undefined };
}

const DELIMITERS: Record<string, string> = { spaceDelimited: ' ', pipeDelimited: '|' };

function fieldShape(shape: ValueShape, name: string): ValueShape {
  if (typeof shape === 'string' || !('object' in shape)) return 'any';
  return (Object.hasOwn(shape.object, name) ? shape.object[name] : shape.rest) ?? 'any';
}

/** Whether a field's schema takes an array: only then do a style's delimiters split its text. */
const listLike = (shape: ValueShape): boolean => shape === 'array' || (typeof shape !== 'string' && ('array' in shape || ('oneOf' in shape && shape.oneOf.some(listLike))));

const structured = (shape: ValueShape): boolean => shape === 'object' || shape === 'array' || (typeof shape !== 'string' && !('oneOf' in shape && shape.oneOf.every((b) => typeof b === 'string' && b !== 'object' && b !== 'array')));

/**
 * Form and multipart fields as the object their schema describes: bracketed names nest
 * (`metadata[order]=1`, `items[0][price]=5`, `expand[]=a`), repeated names collect, a field's
 * `encoding` decides how an array's text splits (style, explode) or parses (a JSON contentType), object
 * fields sent as JSON text are parsed (the default encoding of objects), and every leaf is coerced
 * to its declared kind. Throws ReservedKeyError for a field named `__proto__`, `constructor` or
 * `prototype`, at any level.
 */
function decodeFields(fields: ReadonlyMap<string, string[]>, shape: ValueShape, encoding: Record<string, FieldEncoding>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, values] of fields) {
    const path = bracketPath(field);
    if (path !== undefined) {
      setPath(out, path, values, `form field ${field}`);
      continue;
    }
    const name = ownKey(field, `form field ${field}`);
    const inner = fieldShape(shape, name);
    const enc = Object.hasOwn(encoding, name) ? encoding[name] : undefined;
    if (enc?.contentType !== undefined && /json/i.test(enc.contentType)) out[name] = jsonField(values[0]);
    else if (structured(inner) && values.length === 1 && /^\s*[[{]/.test(values[0])) out[name] = jsonField(values[0]);
    else if (enc !== undefined && enc.explode === false && (enc.style ?? 'form') in { form: 1, spaceDelimited: 1, pipeDelimited: 1 } && listLike(inner)) out[name] = values[0] === '' ? [] : values[0].split(DELIMITERS[enc.style ?? ''] ?? ',');
    else out[name] = values.length === 1 || (typeof inner === 'string' && inner !== 'any' && inner !== 'array') ? values[0] : values;
  }
  return coerceShape(out, shape) as Record<string, unknown>;
}

/** `id=` or a bare `id`: fields sent empty among those that may not be. */
function emptyFields(fields: ReadonlyMap<string, string[]>, nonEmpty: string[]): ValidationIssue[] | undefined {
  let issues: ValidationIssue[] | undefined;
  for (const name of nonEmpty) {
    if (fields.get(name)?.includes('') !== true) continue;
    const pointer = `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    (issues ??= []).push({ location: 'body', name: pointer, message: `body ${pointer} must not be empty (its allowEmptyValue is false)`, keyword: 'allowEmptyValue' });
  }
  return issues;
}

/** Object fields travel as JSON text (the OpenAPI default encoding for objects in form bodies). */
function jsonField(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
