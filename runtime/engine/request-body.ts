import type { BodyMeta } from '../../common/contract/index.js';
import { coerce } from '../../common/coerce.js';
import { parseQuery } from '../exchange/index.js';
import { parseMultipart } from './multipart.js';

/** Index of the declared request media type that accepts `contentType`, or -1 (415). */
export function findContent(contents: BodyMeta[], contentType: string | undefined): number {
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

export type ParsedBody = { ok: true; value: unknown } | { ok: false; error: string };

/** Parses a body for validation: JSON, or url-encoded fields coerced to their schema kinds. */
export function parseBody(meta: BodyMeta, raw: Buffer, contentType: string): ParsedBody {
  if (meta.format === 'json') {
    try {
      return { ok: true, value: JSON.parse(raw.toString('utf8')) };
    } catch (e) {
      return { ok: false, error: `malformed JSON body: ${(e as Error).message}` };
    }
  }
  if (meta.format === 'form' || meta.format === 'multipart') {
    const fields = meta.format === 'form' ? parseQuery(raw.toString('utf8')) : parseMultipart(raw, contentType);
    if (fields === undefined) return { ok: false, error: 'malformed multipart body: parts do not follow the declared boundary' };
    const out: Record<string, unknown> = {};
    for (const [name, values] of fields) {
      const kind = meta.fields?.[name] ?? 'string';
      out[name] = kind.startsWith('array:') ? values.map((v) => coerce(v, kind.slice(6))) : kind === 'object' ? jsonField(values[0]) : coerce(values[0], kind);
    }
    return { ok: true, value: out };
  }
  return { ok: true, value: undefined };
}

/** Object fields travel as JSON text (the OpenAPI default encoding for objects in form bodies). */
function jsonField(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
