import { createGeneratorEmitter, type IrContent, type IrOperation, type JsonSchema } from '../../compiler/index.js';
import { createGenRuntime } from '../../runtime/index.js';
import { sampleCredentials } from './credentials.js';
import { sequenceBody } from './sequence-body.js';

/** A request ready to send: `path` includes the query string. */
export interface PlannedRequest {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RequestFactory {
  /** A fresh value valid against `schema` (request mode: readOnly properties left out). */
  value(schema: JsonSchema): unknown;
  /** A request the operation must accept: every path parameter, the required query, header and cookie parameters, credentials its security asks for, a body when one is documented. */
  valid(op: IrOperation): PlannedRequest;
}

const BOUNDARY = 'mock-boundary-7MA4YWxkTrZu0gW';

/**
 * Builds requests from the description with the server's own generators (request mode), so a
 * load test or a conformance run sends what the description says a client sends.
 */
export function createRequestFactory(definitions: Record<string, JsonSchema>, seed?: number, now?: () => number): RequestFactory {
  const emitter = createGeneratorEmitter(definitions);
  const g = createGenRuntime({ seed, now });
  const compiled = new Map<JsonSchema, () => unknown>();
  const value = (schema: JsonSchema): unknown => {
    let make = compiled.get(schema);
    if (make === undefined) {
      const expression = emitter.expression(schema, 'request');
      make = new Function('g', `${emitter.declarations()}\nreturn () => ${expression};`)(g) as () => unknown;
      compiled.set(schema, make);
    }
    return make();
  };

  const nonEmpty = (schema: JsonSchema): unknown => {
    let v = value(schema);
    for (let i = 0; i < 5 && (v === '' || v === null); i++) v = value(schema);
    return v;
  };

  return {
    value,
    valid(op) {
      let path = op.path;
      const query = new URLSearchParams();
      const headers: Record<string, string> = {};
      const cookies: string[] = [];
      for (const p of op.parameters) {
        if (p.in !== 'path' && !p.required) continue;
        const v = nonEmpty(p.schema);
        const text = serialise(v);
        if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(text));
        else if (p.in === 'query') {
          if (Array.isArray(v) && p.explode) for (const item of v) query.append(p.name, serialise(item));
          else query.append(p.name, text);
        } else if (p.in === 'header') headers[p.name] = text;
        else cookies.push(`${p.name}=${encodeURIComponent(text)}`);
      }
      const credentials = sampleCredentials(op);
      Object.assign(headers, credentials.headers);
      for (const [name, text] of credentials.query) if (!query.has(name)) query.append(name, text);
      for (const [name, text] of credentials.cookies) cookies.push(`${name}=${encodeURIComponent(text)}`);
      if (cookies.length > 0) headers.cookie = cookies.join('; ');
      const body = requestBody(op, value);
      if (body) headers['content-type'] = body.contentType;
      const qs = query.toString();
      return { operation: op.key, method: op.method, path: qs ? `${path}?${qs}` : path, headers, body: body?.text };
    },
  };
}

function requestBody(op: IrOperation, value: (schema: JsonSchema) => unknown): { contentType: string; text: string } | undefined {
  const contents = op.requestBody?.contents ?? [];
  const sequential = contents.find((c) => c.sequence !== undefined && sequenceBody(c, value) !== undefined);
  if (sequential) return { contentType: sequential.mediaType, text: sequenceBody(sequential, value) as string };
  const pick = (test: (c: IrContent) => boolean) => contents.find((c) => c.schema !== undefined && test(c));
  const json = pick((c) => /json/i.test(c.mediaType) || c.mediaType === '*/*');
  if (json) return { contentType: json.mediaType === '*/*' ? 'application/json' : json.mediaType, text: JSON.stringify(value(json.schema as JsonSchema)) };
  const form = pick((c) => c.mediaType === 'application/x-www-form-urlencoded');
  if (form) {
    const fields = new URLSearchParams();
    for (const [k, v] of Object.entries((value(form.schema as JsonSchema) ?? {}) as Record<string, unknown>)) {
      if (Array.isArray(v)) for (const item of v) fields.append(k, serialise(item));
      else fields.append(k, serialise(v));
    }
    return { contentType: form.mediaType, text: fields.toString() };
  }
  const multipart = pick((c) => c.mediaType.startsWith('multipart/'));
  if (multipart) {
    const part = (name: string, text: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`;
    const parts = Object.entries((value(multipart.schema as JsonSchema) ?? {}) as Record<string, unknown>).map(([k, v]) =>
      Array.isArray(v) ? v.map((item) => part(k, serialise(item))).join('') : part(k, serialise(v)),
    );
    return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, text: `${parts.join('')}--${BOUNDARY}--\r\n` };
  }
  if (op.requestBody?.required && contents.length > 0) {
    const type = contents[0].mediaType.includes('*') ? 'application/octet-stream' : contents[0].mediaType;
    return { contentType: type, text: 'mock' };
  }
  return undefined;
}

/** Parameter and form values as text: arrays comma-joined (style simple/form), objects as JSON. */
export function serialise(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(serialise).join(',');
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
