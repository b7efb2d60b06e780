import type { IrContent, IrOperation, JsonSchema } from '../../compiler/index.js';
import { createRequestFactory, sequenceBody, serialise, type RequestFactory } from '../requests/index.js';
import type { Validators } from './validators.js';

export type BodyFormat = 'json' | 'form' | 'multipart' | 'raw';

export interface ModelBody {
  /** Index of the chosen content in op.requestBody.contents. */
  contentIndex: number;
  /** Content-Type sent. */
  mediaType: string;
  format: BodyFormat;
  value: unknown;
}

/** A request before serialisation, so that probes can take one part away or change it. */
export interface RequestModel {
  op: IrOperation;
  /** Path parameter values as text (not yet percent-encoded). */
  path: Record<string, string>;
  query: Array<[string, string]>;
  /** Header parameters, names lower-cased. */
  headers: Record<string, string>;
  cookies: Array<[string, string]>;
  body?: ModelBody;
  /** Set when the generator could not produce a request the description accepts, and why. */
  unsatisfied?: string;
}

/** What goes on the wire. `path` holds the query string. */
export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export const BOUNDARY = 'mock-conformance-boundary-5d1f0a';
const ATTEMPTS = 6;

/**
 * Valid requests from the description with the server's own generators (src/requests), each
 * checked against the description's validators and drawn again when a draw does not satisfy
 * them (oneOf, `not`, patterns the generator cannot honour). A request that still fails after a
 * few draws is marked `unsatisfied` with the validator's words, rather than sent as "valid".
 */
export class RequestBuilder {
  private readonly factory: RequestFactory;

  constructor(
    definitions: Record<string, JsonSchema>,
    private readonly validators: Validators,
    seed: number,
  ) {
    this.factory = createRequestFactory(definitions, seed);
  }

  /** A fresh value for `schema` (request mode). */
  value(schema: JsonSchema): unknown {
    return this.factory.value(schema);
  }

  valid(op: IrOperation): RequestModel {
    const model: RequestModel = { op, path: {}, query: [], headers: {}, cookies: [] };
    const problems: string[] = [];
    for (const p of op.parameters) {
      if (p.in !== 'path' && !p.required) continue;
      const check = this.validators.param(p.schema);
      let value: unknown;
      let problem: string | undefined;
      for (let i = 0; i < ATTEMPTS; i++) {
        value = this.nonEmpty(p.schema);
        problem = check(value);
        if (problem === undefined) break;
      }
      if (problem !== undefined) problems.push(`${p.in} parameter '${p.name}': ${problem.replace(/^body /, '')}`);
      const text = serialise(value);
      if (p.in === 'path') model.path[p.name] = text;
      else if (p.in === 'query') {
        if (Array.isArray(value) && p.explode) for (const item of value) model.query.push([p.name, serialise(item)]);
        else model.query.push([p.name, text]);
      } else if (p.in === 'header') model.headers[p.name.toLowerCase()] = text;
      else model.cookies.push([p.name, text]);
    }
    const body = this.body(op);
    if (body) {
      model.body = body.body;
      if (body.problem) problems.push(`request body: ${body.problem}`);
    }
    if (problems.length > 0) model.unsatisfied = problems.join('; ');
    return model;
  }

  private body(op: IrOperation): { body: ModelBody; problem?: string } | undefined {
    const contents = op.requestBody?.contents ?? [];
    // JSON Lines and json-seq: items from the item schema, each valid; sent as they are (no body mutation reads items)
    for (let ci = 0; ci < contents.length; ci++) {
      const check = this.validators.bodyItem(op, ci);
      const text = sequenceBody(contents[ci], (schema) => this.value(schema), (item) => check?.(item) === undefined);
      if (text !== undefined) return { body: { contentIndex: ci, mediaType: contents[ci].mediaType, format: 'raw', value: text } };
    }
    const pick = (test: (c: IrContent) => boolean) => contents.findIndex((c) => c.schema !== undefined && test(c));
    const candidates: Array<[number, BodyFormat]> = [
      [pick((c) => /json/i.test(c.mediaType) || c.mediaType === '*/*'), 'json'],
      [pick((c) => c.mediaType === 'application/x-www-form-urlencoded'), 'form'],
      [pick((c) => c.mediaType.startsWith('multipart/')), 'multipart'],
    ];
    const found = candidates.find(([index]) => index !== -1);
    if (found) {
      const [ci, format] = found;
      const content = contents[ci];
      const check = this.validators.body(op, ci);
      let value: unknown;
      let problem: string | undefined;
      for (let i = 0; i < ATTEMPTS; i++) {
        value = this.value(content.schema as JsonSchema);
        problem = check?.(value);
        if (problem === undefined) break;
      }
      const mediaType =
        format === 'multipart' ? `multipart/form-data; boundary=${BOUNDARY}` : content.mediaType.includes('*') ? 'application/json' : content.mediaType;
      return { body: { contentIndex: ci, mediaType, format, value }, problem };
    }
    if (op.requestBody?.required && contents.length > 0) {
      const mediaType = contents[0].mediaType.includes('*') ? 'application/octet-stream' : contents[0].mediaType;
      return { body: { contentIndex: 0, mediaType, format: 'raw', value: 'mock' } };
    }
    return undefined;
  }

  private nonEmpty(schema: JsonSchema): unknown {
    let v = this.value(schema);
    for (let i = 0; i < 5 && (v === '' || v === null); i++) v = this.value(schema);
    return v;
  }
}

/** A body value in one of the formats a request can carry. */
export function serialiseBody(format: BodyFormat, value: unknown): string {
  if (format === 'json') return JSON.stringify(value) ?? 'null';
  if (format === 'form') return fields(value).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  if (format === 'multipart') {
    const parts = fields(value).map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '%22')}"\r\n\r\n${v}\r\n`);
    return `${parts.join('')}--${BOUNDARY}--\r\n`;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Form fields of a value: arrays repeat their field, objects travel as JSON, a scalar is one field `value`. */
export function fields(value: unknown): Array<[string, string]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [['value', serialise(value)]];
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (Array.isArray(v)) for (const item of v) out.push([k, serialise(item)]);
    else out.push([k, serialise(v)]);
  }
  return out;
}

/** Serialises a model; `body` replaces the model's body (null: send none). */
export function render(model: RequestModel, body?: { mediaType: string; text: string } | null): WireRequest {
  let path = model.op.path;
  for (const [name, text] of Object.entries(model.path)) path = path.split(`{${name}}`).join(encodeURIComponent(text));
  const qs = model.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const headers: Record<string, string> = { ...model.headers };
  if (model.cookies.length > 0) headers.cookie = model.cookies.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  const sent = body === null ? undefined : (body ?? (model.body ? { mediaType: model.body.mediaType, text: serialiseBody(model.body.format, model.body.value) } : undefined));
  if (sent) headers['content-type'] = sent.mediaType;
  return { method: model.op.method, path: qs ? `${path}?${qs}` : path, headers, body: sent?.text };
}
