import YAML from 'yaml';
import type { IrOperation, IrParameter, JsonSchema } from '../../compiler/index.js';
import { coerce } from '../../common/coerce.js';
import { toXml } from '../../common/xml.js';
import { applyAuth } from '../bench/plan.js';
import { sampleCredentials } from '../requests/index.js';
import { bodyMutations } from './body-mutations.js';
import { EMBEDDED_DOCUMENTS, FORMAT_MEDIA_TYPE, OTHER_FORMATS, OWASP_PAYLOADS, type OtherFormat, type OwaspKind } from './payloads.js';
import { categoryOf, type Expectation, type Probe } from './probe.js';
import { render, serialiseBody, type RequestBuilder, type RequestModel, type WireRequest } from './request-model.js';
import type { SchemaView } from './schema-view.js';
import type { Validators } from './validators.js';

/** The uri-too-long probe's query string length (9 KiB). */
export const URI_TOO_LONG_QUERY_BYTES = 9 * 1024;

export interface PlanContext {
  builder: RequestBuilder;
  view: SchemaView;
  validators: Validators;
  /** Headers of every probe, names lower-cased (`--headers`, `--auth`). */
  headers: Record<string, string>;
  /** `--auth`, applied per operation to every probe but the security ones. */
  auth?: string;
  /** `--conformance-header`s, added last. */
  extraHeaders?: Array<[string, string]>;
}

export interface PlannedOperation {
  probes: Probe[];
  /** Probes not sent, and why (the positive case when no valid request could be generated). */
  skipped: Array<{ label: string; operation: string; reason: string }>;
}

/** Every probe of one operation, in the SPEC's order: positive, request-body, parameters, security, owasp. */
export function planOperation(op: IrOperation, ctx: PlanContext): PlannedOperation {
  const model = ctx.builder.valid(op);
  const probes: Probe[] = [];
  const skipped: PlannedOperation['skipped'] = [];
  const add: Add = (label, expect, request, note, drop = [], force = {}) => {
    const category = categoryOf(label);
    let sent = request;
    if (ctx.auth !== undefined && category !== 'security') {
      const withAuth = { operation: op.key, ...request, headers: { ...request.headers } };
      applyAuth(withAuth, op, ctx.auth);
      sent = { method: withAuth.method, path: withAuth.path, headers: lowerCased(withAuth.headers), body: withAuth.body };
    } else if (category !== 'security') sent = withSampleCredentials(request, op, ctx.headers);
    probes.push({ label, category, operation: op.key, opIndex: op.index, expect, request: finish(sent, ctx, drop, force), note });
  };

  if (model.unsatisfied) skipped.push({ label: 'positive', operation: op.key, reason: `could not generate a valid request: ${model.unsatisfied}` });
  else add('positive', 'positive', render(model), 'a valid request generated from the description');

  requestBodyProbes(model, ctx, add);
  parameterProbes(model, ctx, add);
  securityProbes(model, add);
  owaspProbes(model, ctx, add);
  return { probes, skipped };
}

/**
 * Without --auth, the sample credentials of the operation's first requirement (the mock checks
 * their form); a header the user gave with --headers wins over a sample one.
 */
function withSampleCredentials(request: WireRequest, op: IrOperation, given: Record<string, string>): WireRequest {
  const credentials = sampleCredentials(op);
  const headers = { ...request.headers };
  for (const [name, value] of Object.entries(credentials.headers)) if (given[name.toLowerCase()] === undefined) headers[name] = value;
  const cookies = credentials.cookies.map(([name, value]) => `${name}=${encodeURIComponent(value)}`);
  if (cookies.length > 0) headers.cookie = [headers.cookie, ...cookies].filter((c) => c !== undefined && c !== '').join('; ');
  const query = new URLSearchParams(credentials.query).toString();
  const path = query === '' ? request.path : `${request.path}${request.path.includes('?') ? '&' : '?'}${query}`;
  return { ...request, path, headers };
}

const lowerCased = (headers: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** `drop`: header names (lower-case) taken out after the shared headers are added; `force`: headers set last (a security probe's credentials). */
type Add = (label: string, expect: Expectation, request: WireRequest, note: string, drop?: string[], force?: Record<string, string>) => void;

/** Shared headers (`--headers`/`--auth`), then the request's own, then `--conformance-header`s; then `drop` and `force`. */
function finish(request: WireRequest, ctx: PlanContext, drop: string[], force: Record<string, string>): WireRequest {
  const headers: Record<string, string> = { ...ctx.headers, ...request.headers };
  for (const [name, value] of ctx.extraHeaders ?? []) headers[name.toLowerCase()] = value;
  for (const name of drop) delete headers[name];
  Object.assign(headers, force);
  return { ...request, headers };
}

function requestBodyProbes(model: RequestModel, ctx: PlanContext, add: Add): void {
  const { op } = model;
  const body = model.body;
  const contents = op.requestBody?.contents ?? [];
  if (body === undefined || contents.length === 0) return;
  const content = contents[body.contentIndex];

  const mutations = bodyMutations(
    {
      value: body.value,
      schema: content.schema,
      check: ctx.validators.body(op, body.contentIndex),
      json: body.format === 'json',
      required: op.requestBody?.required === true,
    },
    ctx.view,
  );
  for (const m of mutations) {
    const text = m.text ?? serialiseBody('json', m.value);
    add(`request-body:${m.kind}${m.scope ? `:${m.scope}` : ''}`, 'negative', render(model, { mediaType: body.mediaType, text }), m.note);
  }

  for (const format of OTHER_FORMATS) {
    const mediaType = FORMAT_MEDIA_TYPE[format];
    if (accepts(contents.map((c) => c.mediaType), mediaType)) continue;
    add(`request-body:content-type-mismatch:${format}`, 'negative', render(model, { mediaType, text: asFormat(format, body.value) }), `the body as ${format}, declared as ${mediaType.split(';')[0]}`);
  }

  const slot = body.format !== 'raw' ? (stringProperty(body.value, content.schema, ctx.view, freeString(ctx.view)) ?? stringProperty(body.value, content.schema, ctx.view)) : undefined;
  for (const format of OTHER_FORMATS) {
    const doc = EMBEDDED_DOCUMENTS[format];
    if (slot !== undefined) {
      const value = { ...(body.value as Record<string, unknown>), [slot]: doc };
      add(`request-body:embedded-content:${format}`, 'tolerant', render(model, { mediaType: body.mediaType, text: serialiseBody(body.format, value) }), `${article(format)} document in string property '${slot}'`);
    } else {
      add(`request-body:embedded-content:${format}`, 'tolerant', render(model, { mediaType: body.mediaType, text: doc }), `${article(format)} document as the whole body, declared as ${body.mediaType.split(';')[0]}`);
    }
  }
}

function parameterProbes(model: RequestModel, ctx: PlanContext, add: Add): void {
  const { op } = model;
  const query = op.parameters.find((p) => p.in === 'query' && p.required);
  if (query) {
    add(`parameters:missing-query:${query.name}`, 'negative', render({ ...model, query: model.query.filter(([k]) => k !== query.name) }), `required query parameter '${query.name}' left out`);
  }
  const header = op.parameters.find((p) => p.in === 'header' && p.required);
  if (header) {
    const name = header.name.toLowerCase();
    const { [name]: _removed, ...headers } = model.headers;
    add(`parameters:missing-header:${header.name}`, 'negative', render({ ...model, headers }), `required header '${header.name}' left out`, [name]);
  }
  for (const p of op.parameters.filter((q) => q.in === 'path')) {
    const bad = badPathValue(p, ctx);
    if (bad === undefined) continue;
    add(`parameters:bad-path-param:${p.name}`, 'negative', render({ ...model, path: { ...model.path, [p.name]: bad } }), `path parameter '${p.name}' = ${JSON.stringify(bad)}`);
    break;
  }
  const base = render(model);
  const existing = base.path.includes('?') ? base.path.slice(base.path.indexOf('?') + 1) : '';
  const prefix = existing ? `${existing}&mock_padding=` : 'mock_padding=';
  const padding = 'a'.repeat(Math.max(0, URI_TOO_LONG_QUERY_BYTES - prefix.length));
  const path = base.path.split('?')[0];
  add('parameters:uri-too-long', 'negative', { ...base, path: `${path}?${prefix}${padding}` }, `a ${URI_TOO_LONG_QUERY_BYTES}-byte query string`);
}

/** A path value the parameter's schema rejects after the server's string coercion, if any. */
function badPathValue(p: IrParameter, ctx: PlanContext): string | undefined {
  const types = ctx.view.types(p.schema);
  if (types.includes('array') || types.includes('object')) return undefined;
  const check = ctx.validators.param(p.schema);
  const kind = types.length === 1 ? types[0] : 'string';
  const maxLength = ctx.view.keyword(p.schema, 'maxLength');
  const first = kind === 'integer' || kind === 'number' ? 'not-a-number' : kind === 'boolean' ? 'not-a-boolean' : 'mock-invalid-value';
  const candidates = [first, 'not-a-number', '-1', '0', '1.5', 'true'];
  if (typeof maxLength === 'number' && maxLength < 2048) candidates.push('a'.repeat(maxLength + 1));
  return candidates.find((c) => check(coerce(c, kind)) !== undefined);
}

interface Credentials {
  bearer: boolean;
  basic: boolean;
  apiKeys: Array<{ in: string; name: string }>;
}

function credentialsOf(op: IrOperation): Credentials {
  const out: Credentials = { bearer: false, basic: false, apiKeys: [] };
  for (const s of op.security) {
    if (s.type === 'apiKey' && s.name) out.apiKeys.push({ in: s.detail ?? 'header', name: s.name });
    else if (s.type === 'http' && s.detail === 'basic') out.basic = true;
    else if (s.type === 'http' || s.type === 'oauth2' || s.type === 'openIdConnect') out.bearer = true;
  }
  return out;
}

function securityProbes(model: RequestModel, add: Add): void {
  const { op } = model;
  // credentials optional ({} among the requirements): a request without them is valid
  if (op.security.length === 0 || op.securityRequirements.some((names) => names.length === 0)) return;
  const creds = credentialsOf(op);
  const headerNames = ['authorization', ...creds.apiKeys.filter((k) => k.in === 'header').map((k) => k.name.toLowerCase())];
  const queryNames = new Set(creds.apiKeys.filter((k) => k.in === 'query').map((k) => k.name));
  const cookieNames = new Set(creds.apiKeys.filter((k) => k.in === 'cookie').map((k) => k.name));
  const bare: RequestModel = {
    ...model,
    headers: Object.fromEntries(Object.entries(model.headers).filter(([k]) => !headerNames.includes(k))),
    query: model.query.filter(([k]) => !queryNames.has(k)),
    cookies: model.cookies.filter(([k]) => !cookieNames.has(k)),
  };
  const schemes = op.security.map((s) => s.scheme).join(', ');
  const request = render(bare);
  if (creds.bearer) add('security:bad-bearer', 'negative', request, `an invalid bearer token (${schemes})`, headerNames, { authorization: 'Bearer mock-invalid-token' });
  if (creds.basic) {
    const basic = Buffer.from('mock-invalid:mock-invalid').toString('base64');
    add('security:bad-basic', 'negative', request, `invalid basic credentials (${schemes})`, headerNames, { authorization: `Basic ${basic}` });
  }
  const key = creds.apiKeys[0];
  if (key) {
    const value = 'mock-invalid-api-key';
    const note = `an invalid API key in ${key.in} '${key.name}' (${schemes})`;
    if (key.in === 'query') add(`security:bad-apikey:${key.name}`, 'negative', render({ ...bare, query: [...bare.query, [key.name, value]] }), note, headerNames);
    else if (key.in === 'cookie') add(`security:bad-apikey:${key.name}`, 'negative', render({ ...bare, cookies: [...bare.cookies, [key.name, value]] }), note, headerNames);
    else add(`security:bad-apikey:${key.name}`, 'negative', request, note, headerNames, { [key.name.toLowerCase()]: value });
  }
  add('security:no-auth', 'negative', request, `no credentials (${schemes})`, headerNames);
}

/** Where an attack string goes: a string query parameter, body property, header or path parameter. */
type Slot = { where: 'query' | 'body' | 'header' | 'path'; name: string };

function owaspProbes(model: RequestModel, ctx: PlanContext, add: Add): void {
  const { op } = model;
  const slot = owaspSlot(model, ctx);
  const xmlBody = (op.requestBody?.contents ?? []).find((c) => /[/+]xml$/i.test(c.mediaType.split(';')[0].trim()));
  for (const kind of Object.keys(OWASP_PAYLOADS) as OwaspKind[]) {
    const payload = OWASP_PAYLOADS[kind];
    if (kind === 'xxe' && xmlBody) {
      add(`owasp:xxe:body`, 'negative', render(model, { mediaType: xmlBody.mediaType, text: payload }), `an XML body declaring an external entity (${xmlBody.mediaType})`);
      continue;
    }
    if (slot === undefined) continue;
    add(`owasp:${kind}:${slot.where}.${slot.name}`, 'negative', render(placed(model, slot, payload)), `${kind} payload in ${slot.where} '${slot.name}'`);
  }
}

/** A string schema without types other than string. */
const plainString =
  (view: SchemaView) =>
  (schema: JsonSchema | undefined): boolean => {
    const types = view.types(schema);
    return (types.length === 0 || types.includes('string')) && !types.includes('array') && !types.includes('object');
  };

/** A string schema any text satisfies (no enum, format, pattern or length limit). */
const freeString =
  (view: SchemaView) =>
  (schema: JsonSchema | undefined): boolean =>
    plainString(view)(schema) && ['enum', 'format', 'pattern', 'maxLength', 'const'].every((k) => view.keyword(schema, k) === undefined);

const article = (format: OtherFormat): string => ({ xml: 'an XML', yaml: 'a YAML', multipart: 'a multipart', urlencoded: 'a URL-encoded' })[format];

function owaspSlot(model: RequestModel, ctx: PlanContext): Slot | undefined {
  const { op } = model;
  const plain = plainString(ctx.view);
  const free = freeString(ctx.view);
  for (const test of [free, plain]) {
    const query = op.parameters.find((p) => p.in === 'query' && p.style !== 'deepObject' && test(p.schema));
    if (query) return { where: 'query', name: query.name };
    if (model.body && model.body.format !== 'raw') {
      const contents = op.requestBody?.contents ?? [];
      const property = stringProperty(model.body.value, contents[model.body.contentIndex]?.schema, ctx.view, test);
      if (property !== undefined) return { where: 'body', name: property };
    }
    const header = op.parameters.find((p) => p.in === 'header' && test(p.schema));
    if (header) return { where: 'header', name: header.name };
    const path = op.parameters.find((p) => p.in === 'path' && test(p.schema));
    if (path) return { where: 'path', name: path.name };
  }
  return undefined;
}

function placed(model: RequestModel, slot: Slot, payload: string): RequestModel {
  switch (slot.where) {
    case 'query':
      return { ...model, query: [...model.query.filter(([k]) => k !== slot.name), [slot.name, payload]] };
    case 'header':
      return { ...model, headers: { ...model.headers, [slot.name.toLowerCase()]: payload } };
    case 'path':
      return { ...model, path: { ...model.path, [slot.name]: payload } };
    case 'body':
      return { ...model, body: model.body && { ...model.body, value: { ...(model.body.value as Record<string, unknown>), [slot.name]: payload } } };
  }
}

/** A top-level string property of an object body (free-form ones first when `test` says so). */
function stringProperty(value: unknown, schema: JsonSchema | undefined, view: SchemaView, test?: (s: JsonSchema | undefined) => boolean): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const shape = view.shape(schema);
  if (!shape) return undefined;
  const isString = (s: JsonSchema | undefined) => {
    const types = view.types(s);
    return types.length === 1 && types[0] === 'string';
  };
  const names = Object.keys(shape.properties).filter((n) => !view.marked(shape.properties[n], 'readOnly') && isString(shape.properties[n]));
  return names.find((n) => (test ? test(shape.properties[n]) : view.keyword(shape.properties[n], 'enum') === undefined)) ?? (test ? undefined : names[0]);
}

/** Whether one of the declared media types accepts `mediaType` (exact, `type/*` or `* /*`). */
function accepts(declared: string[], mediaType: string): boolean {
  const type = mediaType.split(';')[0].trim().toLowerCase();
  const major = type.split('/')[0];
  return declared.some((d) => {
    const t = d.split(';')[0].trim().toLowerCase();
    return t === type || t === '*/*' || t === `${major}/*`;
  });
}

function asFormat(format: OtherFormat, value: unknown): string {
  switch (format) {
    case 'xml':
      return toXml(value, 'request');
    case 'yaml':
      return YAML.stringify(value);
    case 'multipart':
      return serialiseBody('multipart', value);
    case 'urlencoded':
      return serialiseBody('form', value);
  }
}
