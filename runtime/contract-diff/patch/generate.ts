import type { CaptureAnalysis } from '../analyze.js';
import { contentTypeOf, type Capture } from '../capture.js';
import type { Mismatch } from '../mismatch.js';
import { escapeToken, isObject, WorkingDocument, type Json, type PatchOp } from './document.js';
import { dialectOf, inferSchema, type Dialect } from './infer.js';
import { DescriptionMap, pathValues } from './locate.js';
import { SchemaWidener } from './widen.js';

/** A correction patch: RFC 6902 operations in order, and what they could not correct. */
export interface CorrectionPatch {
  operations: PatchOp[];
  notes: string[];
}

const OBSERVED = 'Observed in traffic (mock contract-diff)';

/**
 * Builds the JSON Patch that makes a description accept what captures showed: new fields, widened
 * types and values, new statuses and media types, new operations and paths. Each capture is held
 * against the description as patched so far, so the operations compose; each change is written
 * where the schema lives (the shared component a `$ref` names), and only where an analysis found a
 * mismatch. `basePath`: the mount of the description's paths (build specs' basePath).
 */
export class PatchBuilder {
  private readonly doc: WorkingDocument;
  private readonly map: DescriptionMap;
  private readonly widener: SchemaWidener;
  private readonly dialect: Dialect;
  private readonly notes: string[] = [];

  constructor(document: Json, basePath: string) {
    this.doc = new WorkingDocument(document);
    this.dialect = dialectOf(document);
    this.map = new DescriptionMap(this.doc, this.dialect, basePath);
    this.widener = new SchemaWidener(this.doc, this.dialect, this.notes);
  }

  add(capture: Capture, analysis: CaptureAnalysis): void {
    if (analysis.mismatches.length === 0) return;
    const kinds = new Set(analysis.mismatches.map((m) => m.type));
    if (kinds.has('missing_endpoint') || kinds.has('invalid_method')) {
      this.addOperation(capture, analysis.path);
      return;
    }
    if (analysis.operation === null) return;
    const space = analysis.operation.indexOf(' ');
    const template = analysis.operation.slice(space + 1).split('?')[0];
    const operation = this.map.operation(analysis.operation.slice(0, space), template);
    if (operation === undefined) {
      this.notes.push(`${analysis.operation}: not found in the description (is it the one the captures were analysed with?)`);
      return;
    }
    const sides = new Set<string>();
    for (const m of analysis.mismatches) {
      if (m.location === 'request.body' || m.location === 'response.body') sides.add(m.location);
      else this.correct(operation, template, capture, analysis.path, m);
    }
    if (sides.has('request.body'))
      this.body(this.map.requestSchema(operation, contentTypeOf(capture.headers, capture.body)), capture.body, contentTypeOf(capture.headers, capture.body), analysis.operation);
    if (sides.has('response.body') && capture.response !== undefined) {
      const response = this.map.response(operation, capture.response.status);
      const type = contentTypeOf(capture.response.headers, capture.response.body);
      if (response !== undefined) this.body(this.map.responseSchema(response, type), capture.response.body, type, analysis.operation);
    }
  }

  patch(): CorrectionPatch {
    return { operations: this.doc.ops, notes: [...new Set(this.notes)] };
  }

  /** A mismatch outside the bodies: a parameter, a header, a status, a media type. */
  private correct(operation: string, template: string, capture: Capture, path: string, m: Mismatch): void {
    const name = m.field.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
    switch (m.type) {
      case 'missing_header':
      case 'invalid_parameter': {
        const where = m.location.slice('request.'.length);
        const parameter = this.map.parameter(operation, where, name);
        if (parameter === undefined) return;
        if (m.type === 'missing_header' || m.keyword === 'required') {
          if (where !== 'path') this.doc.write({ op: 'replace', path: `${parameter}/required`, value: false });
          return;
        }
        const observed = this.parameterValue(capture, path, template, where, name);
        if (observed !== undefined) this.widener.widen(this.map.parameterSchema(parameter), coerce(observed, this.doc.at(this.doc.resolve(this.map.parameterSchema(parameter)) ?? '')));
        return;
      }
      case 'undocumented_status':
        if (capture.response !== undefined) this.addResponse(operation, capture.response.status, capture.response.headers, capture.response.body);
        return;
      case 'invalid_content_type':
        if (m.location === 'request.header') this.addRequestMedia(operation, capture);
        else if (capture.response !== undefined) this.addResponseMedia(operation, capture);
        return;
      default:
        this.notes.push(`${m.location}${m.field}: ${m.type} (${m.message}) has no correction a patch can make`);
    }
  }

  private body(schema: string | undefined, body: unknown, contentType: string | undefined, operation: string): void {
    const value = parsed(body, contentType);
    if (schema === undefined || value === undefined) {
      this.notes.push(`${operation}: no schema documents this body${value === undefined ? ' (or it is not JSON)' : ''}`);
      return;
    }
    this.widener.widen(schema, value);
  }

  private parameterValue(capture: Capture, path: string, template: string, where: string, name: string): string | string[] | undefined {
    if (where === 'query') {
      const q = capture.path.indexOf('?');
      const fromPath = new URLSearchParams(q === -1 ? '' : capture.path.slice(q + 1)).getAll(name);
      const given = capture.query_params[name];
      const all = [...fromPath, ...(given === undefined ? [] : Array.isArray(given) ? given : [given])];
      return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
    }
    if (where === 'header') return capture.headers[name.toLowerCase()];
    if (where === 'path') return pathValues(template, path)[name];
    return undefined;
  }

  private addOperation(capture: Capture, path: string): void {
    const method = capture.method.toLowerCase();
    const operation: Json = { summary: OBSERVED, responses: {} };
    const query = Object.keys(capture.query_params);
    if (query.length > 0) operation.parameters = query.map((name) => (this.dialect === '2.0' ? { name, in: 'query', type: 'string' } : { name, in: 'query', schema: { type: 'string' } }));
    const requestType = contentTypeOf(capture.headers, capture.body);
    const requestValue = parsed(capture.body, requestType);
    if (capture.body !== undefined) {
      const schema = requestValue === undefined ? { type: 'string' } : inferSchema(requestValue, this.dialect);
      if (this.dialect === '2.0') operation.parameters = [...((operation.parameters as Json[]) ?? []), { name: 'body', in: 'body', schema }];
      else operation.requestBody = { content: { [requestType ?? 'application/octet-stream']: { schema } } };
    }
    const response = capture.response;
    const status = response === undefined ? 'default' : String(response.status);
    operation.responses = { [status]: response === undefined ? { description: OBSERVED } : this.responseObject(response.headers, response.body) };
    const existing = this.map.pathItem(path, true);
    if (existing !== undefined) {
      if (this.doc.at(`${existing}/${method}`) === undefined) this.doc.write({ op: 'add', path: `${existing}/${method}`, value: operation });
      return;
    }
    if (!isObject(this.doc.at('/paths'))) this.doc.write({ op: 'add', path: '/paths', value: {} });
    this.doc.write({ op: 'add', path: `/paths/${escapeToken(this.map.unmounted(path.split('?')[0]))}`, value: { [method]: operation } });
    this.notes.push(`${capture.method} ${path}: added as a literal path; replace its variable segments with {parameters} if it has any`);
  }

  private responseObject(headers: Capture['headers'], body: unknown): Json {
    const type = contentTypeOf(headers, body);
    const value = parsed(body, type);
    if (body === undefined || body === '') return { description: OBSERVED };
    const schema = value === undefined ? { type: 'string' } : inferSchema(value, this.dialect);
    return this.dialect === '2.0' ? { description: OBSERVED, schema } : { description: OBSERVED, content: { [type ?? 'application/octet-stream']: { schema } } };
  }

  private addResponse(operation: string, status: number, headers: Capture['headers'], body: unknown): void {
    if (!isObject(this.doc.at(`${operation}/responses`))) this.doc.write({ op: 'add', path: `${operation}/responses`, value: {} });
    this.doc.write({ op: 'add', path: `${operation}/responses/${status}`, value: this.responseObject(headers, body) });
  }

  private addRequestMedia(operation: string, capture: Capture): void {
    const type = contentTypeOf(capture.headers, capture.body);
    if (type === undefined) return;
    const value = parsed(capture.body, type);
    const schema = value === undefined ? { type: 'string' } : inferSchema(value, this.dialect);
    if (this.dialect === '2.0') {
      this.addToList(`${operation}/consumes`, type);
      return;
    }
    const body = this.doc.resolve(`${operation}/requestBody`);
    if (body === undefined || this.doc.at(body) === undefined) this.doc.write({ op: 'add', path: `${operation}/requestBody`, value: { content: { [type]: { schema } } } });
    else if (!isObject(this.doc.at(`${body}/content`))) this.doc.write({ op: 'add', path: `${body}/content`, value: { [type]: { schema } } });
    else this.doc.write({ op: 'add', path: `${body}/content/${escapeToken(type.split(';')[0].trim())}`, value: { schema } });
  }

  private addResponseMedia(operation: string, capture: Capture): void {
    const response = capture.response!;
    const type = contentTypeOf(response.headers, response.body);
    const at = this.map.response(operation, response.status);
    if (type === undefined || at === undefined) return;
    if (this.dialect === '2.0') {
      this.addToList(`${operation}/produces`, type);
      return;
    }
    const value = parsed(response.body, type);
    const media = { schema: value === undefined ? { type: 'string' } : inferSchema(value, this.dialect) };
    if (!isObject(this.doc.at(`${at}/content`))) this.doc.write({ op: 'add', path: `${at}/content`, value: { [type]: media } });
    else this.doc.write({ op: 'add', path: `${at}/content/${escapeToken(type.split(';')[0].trim())}`, value: media });
  }

  private addToList(at: string, value: string): void {
    const list = this.doc.at(at);
    if (Array.isArray(list)) this.doc.write({ op: 'add', path: `${at}/-`, value });
    else this.doc.write({ op: 'add', path: at, value: [value] });
  }
}

/** A captured body as the JSON value it is (a JSON text is read); undefined for a body that is not JSON. */
function parsed(body: unknown, contentType: string | undefined): unknown {
  if (body === undefined) return undefined;
  if (typeof body !== 'string') return body;
  if (contentType !== undefined && !/json/i.test(contentType)) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** A parameter's text as the validators read it: a number or a boolean where the schema says so. */
function coerce(value: string | string[], schema: unknown): unknown {
  const type = isObject(schema) ? schema.type : undefined;
  const one = (text: string): unknown => {
    if ((type === 'integer' || type === 'number') && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
    if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
    return text;
  };
  if (type === 'array') return (Array.isArray(value) ? value : value.split(',')).map((item) => item);
  return Array.isArray(value) ? one(value[0]) : one(value);
}
