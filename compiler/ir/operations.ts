import type { IrCallback, IrContent, IrHeader, IrOperation, IrParameter, IrRequestBody, IrResponse, IrSecurity, ParameterLocation } from './types.js';
import type { SchemaRegistry } from './normalize-schema.js';
import { deref } from './pointer.js';
import { collectExamples } from './examples.js';
import { lowerCallbacks } from './callbacks.js';
import { lowerSequence } from './sequences.js';
import { fieldProblem, isFieldName } from '../../common/http-fields.js';
import { NON_EMPTY_FIELD } from '../load/index.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** OpenAPI 3.2's fixed field for the QUERY method (RFC draft "The HTTP QUERY Method"). */
const QUERY = 'query';
/** A method name as `additionalOperations` keys it: an HTTP token (RFC 9110 5.6.2). */
const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** OpenAPI says these header parameters are ignored: they are driven by the HTTP layer. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
/** Response headers the HTTP layer owns: echoing a documented value would corrupt the framing. */
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer', 'te', 'content-encoding', 'date']);
const DEFAULT_STYLE: Record<ParameterLocation, string> = { path: 'simple', query: 'form', header: 'simple', cookie: 'form' };

type Obj = Record<string, unknown>;

interface LowerContext {
  document: Obj;
  registry: SchemaRegistry;
  specIndex: number;
  basePath: string;
  /** 'openapi-3.0' | 'openapi-3.1' | 'openapi-3.2' | 'swagger-2.0': which rules of the encoding object apply, which methods a path item may hold. */
  dialect: string;
  /** Build warnings: what of the description is left out. */
  warnings: string[];
}

/** Lowers `paths` of one OpenAPI 3.x document into IR operations (indexes assigned later). */
export function lowerOperations(ctx: LowerContext): Omit<IrOperation, 'index'>[] {
  const out: Omit<IrOperation, 'index'>[] = [];
  const paths = (ctx.document.paths ?? {}) as Obj;
  for (const [specPath, rawItem] of Object.entries(paths)) {
    const item = deref(ctx.document, rawItem as Obj);
    if (!item || typeof item !== 'object') continue;
    const shared = asList(item.parameters);
    for (const [method, op] of pathItemOperations(ctx, item, specPath)) {
      const { template, query } = splitPathKey(specPath);
      const path = joinPath(ctx.basePath, template);
      out.push({
        key: `${method.toUpperCase()} ${path}${query === undefined ? '' : `?${new URLSearchParams(query).toString()}`}`,
        ...(query === undefined ? {} : { queryMatch: query }),
        operationId: typeof op.operationId === 'string' ? op.operationId : undefined,
        summary: str(op.summary),
        description: str(op.description),
        tags: asList(op.tags).filter((t): t is string => typeof t === 'string'),
        method: method.toUpperCase(),
        path,
        specPath,
        spec: ctx.specIndex,
        parameters: lowerParameters(ctx, [...shared, ...asList(op.parameters)]),
        requestBody: lowerRequestBody(ctx, op.requestBody, `${method.toUpperCase()} ${specPath} request body`),
        responses: lowerResponses(ctx, op.responses, `${method.toUpperCase()} ${specPath}`),
        ...lowerSecurity(ctx.document, (op.security ?? ctx.document.security) as unknown),
        ...callbacksOf(lowerCallbacks(ctx.document, op.callbacks, `${method.toUpperCase()} ${specPath}`, ctx.warnings, (schema) => ctx.registry.normalize(schema))),
      });
    }
  }
  return out;
}

/** Present only when the operation declares some, so an operation without is lowered as before. */
const callbacksOf = (callbacks: IrCallback[]): { callbacks?: IrCallback[] } => (callbacks.length === 0 ? {} : { callbacks });
/**
 * A path item's operations by lower-case method: the fixed fields, and in OpenAPI 3.2 `query` and
 * every method `additionalOperations` names (upper-cased, as the servers read methods); a name
 * that is not an HTTP token, or repeats a fixed field, is left out with a build warning.
 */
function pathItemOperations(ctx: LowerContext, item: Obj, specPath: string): Array<[string, Obj]> {
  const out: Array<[string, Obj]> = [];
  const fixed = ctx.dialect === 'openapi-3.2' ? [...METHODS, QUERY] : METHODS;
  for (const method of fixed) {
    const op = item[method];
    if (op && typeof op === 'object') out.push([method, op as Obj]);
  }
  if (ctx.dialect !== 'openapi-3.2') return out;
  const more = deref(ctx.document, item.additionalOperations as Obj | undefined);
  for (const [name, op] of Object.entries(more ?? {})) {
    const method = name.toLowerCase();
    if (!METHOD_TOKEN.test(name) || fixed.includes(method)) {
      ctx.warnings.push(`${specPath}: additionalOperations ${JSON.stringify(name)} is left out: ${METHOD_TOKEN.test(name) ? `use the "${method}" field instead` : 'it is not an HTTP method name'}`);
      continue;
    }
    if (op && typeof op === 'object') out.push([method, deref(ctx.document, op as Obj) as Obj]);
  }
  return out;
}

/** `/?Action=CreateQueue` and `/#Action=CreateQueue`: the path template and the query it demands. */
function splitPathKey(specPath: string): { template: string; query?: Record<string, string> } {
  const at = specPath.search(/[?#]/);
  if (at === -1) return { template: specPath };
  const query = Object.fromEntries(new URLSearchParams(specPath.slice(at + 1)));
  return { template: specPath.slice(0, at) || '/', query: Object.keys(query).length > 0 ? query : undefined };
}

function lowerParameters(ctx: LowerContext, raw: unknown[]): IrParameter[] {
  const byKey = new Map<string, IrParameter>();
  for (const entry of raw) {
    const p = deref(ctx.document, entry as Obj);
    if (!p || typeof p.name !== 'string' || typeof p.in !== 'string') continue;
    if (p.in === 'querystring') {
      if (ctx.dialect === 'openapi-3.2') for (const q of querystringFields(ctx, p)) byKey.set(`query:${q.name}`, q);
      continue;
    }
    const location = p.in as ParameterLocation;
    if (!['path', 'query', 'header', 'cookie'].includes(location)) continue;
    if (location === 'header' && IGNORED_HEADERS.has(p.name.toLowerCase())) continue;
    const contentSchema = firstContentSchema(p.content);
    // a parameter given by `content` (application/json …) travels as that text, not in a style
    const style = p.schema === undefined && contentSchema !== undefined && /json/i.test(Object.keys(p.content as Obj)[0] ?? '') ? 'json' : typeof p.style === 'string' ? p.style : DEFAULT_STYLE[location];
    const name = location === 'header' ? p.name.toLowerCase() : p.name;
    // later entries (operation level) override path-level ones with the same name and location
    byKey.set(`${location}:${name}`, {
      name,
      declaredName: p.name,
      in: location,
      required: location === 'path' ? true : p.required === true,
      schema: ctx.registry.normalize(p.schema ?? contentSchema ?? { type: 'string' }),
      style,
      explode: typeof p.explode === 'boolean' ? p.explode : style === 'form',
      ...(location === 'query' && (p.allowEmptyValue === true || emptyByDefault(ctx, p)) ? { allowEmptyValue: true as const } : {}),
    });
  }
  return [...byKey.values()];
}

/**
 * An `in: querystring` parameter (3.2: the whole query string, decoded by its one media type) as
 * the query parameters it amounts to: a form-urlencoded object's properties are each a form-style
 * query parameter, required as its `required` says, so they are read, coerced and checked as any
 * query parameter is. Other media types (a JSON query string) are left out with a build warning.
 */
function querystringFields(ctx: LowerContext, p: Obj): IrParameter[] {
  const [type, media] = Object.entries((p.content ?? {}) as Obj)[0] ?? [];
  const schema = deref(ctx.document, (media as Obj | undefined)?.schema as Obj | undefined);
  const properties = schema?.properties as Obj | undefined;
  if (type?.split(';')[0].trim().toLowerCase() !== 'application/x-www-form-urlencoded' || !properties || typeof properties !== 'object') {
    ctx.warnings.push(`querystring parameter ${JSON.stringify(p.name)}: only an application/x-www-form-urlencoded object is checked (found ${type ?? 'no content'}); left out`);
    return [];
  }
  const required = new Set(asList(schema!.required));
  const encoding = ((media as Obj).encoding ?? {}) as Obj;
  return Object.entries(properties).map(([name, field]) => {
    const e = (encoding[name] ?? {}) as Obj;
    const style = typeof e.style === 'string' ? e.style : 'form';
    return {
      name,
      declaredName: name,
      in: 'query' as const,
      required: required.has(name),
      schema: ctx.registry.normalize(field),
      style,
      explode: typeof e.explode === 'boolean' ? e.explode : style === 'form',
    };
  });
}

/**
 * An optional parameter whose schema's own default is "" (Jira's `queryString`): sending that value
 * empty is sending the default, which allowEmptyValue (deprecated, and NOT RECOMMENDED in OpenAPI 3)
 * does not refuse; the schema still judges it (minLength, pattern, enum).
 */
function emptyByDefault(ctx: LowerContext, p: Obj): boolean {
  return p.required !== true && deref(ctx.document, p.schema as Obj | undefined)?.default === '';
}

function lowerRequestBody(ctx: LowerContext, raw: unknown, where: string): IrRequestBody | undefined {
  const body = deref(ctx.document, raw as Obj | undefined);
  if (!body || typeof body !== 'object') return undefined;
  const contents = lowerContents(ctx, body.content, where).map((content) => {
    const media = (body.content as Obj)[content.mediaType] as Obj | undefined;
    const encoding = lowerEncoding(media?.encoding, stylesApply(content.mediaType, ctx.dialect));
    const nonEmpty = nonEmptyFields(ctx.document, media?.schema);
    return { ...content, ...(encoding === undefined ? {} : { encoding }), ...(nonEmpty.length === 0 ? {} : { nonEmptyFields: nonEmpty }) };
  });
  if (contents.length === 0) return undefined;
  return { required: body.required === true, contents };
}

function lowerResponses(ctx: LowerContext, raw: unknown, where: string): IrResponse[] {
  if (!raw || typeof raw !== 'object') return [];
  const out: IrResponse[] = [];
  for (const [status, entry] of Object.entries(raw as Obj)) {
    if (!/^([1-5](\d\d|XX)|default)$/i.test(status)) continue;
    const response = deref(ctx.document, entry as Obj);
    if (!response || typeof response !== 'object') continue;
    out.push({
      status: status.toUpperCase() === 'DEFAULT' ? 'default' : status.toUpperCase(),
      description: str(response.description) ?? '',
      headers: lowerHeaders(ctx, response.headers, `${where} response ${status}`),
      contents: lowerContents(ctx, response.content, `${where} response ${status}`),
    });
  }
  return out;
}

function lowerHeaders(ctx: LowerContext, raw: unknown, where: string): IrHeader[] {
  if (!raw || typeof raw !== 'object') return [];
  const out: IrHeader[] = [];
  for (const [name, entry] of Object.entries(raw as Obj)) {
    const lower = name.toLowerCase();
    if (TRANSPORT_HEADERS.has(lower)) continue;
    const header = deref(ctx.document, entry as Obj);
    if (!header || typeof header !== 'object') continue;
    if (!isFieldName(name)) {
      ctx.warnings.push(`${where}: header ${JSON.stringify(name)} is left out: it is not a valid header name`);
      continue;
    }
    const schema = header.schema ?? firstContentSchema(header.content);
    const problem = typeof header.example === 'string' ? fieldProblem(lower, header.example) : undefined;
    if (problem !== undefined) ctx.warnings.push(`${where}: the example of header ${JSON.stringify(name)} is left out: it ${problem}`);
    out.push({
      name: lower,
      required: header.required === true,
      schema: schema ? ctx.registry.normalize(schema) : undefined,
      example: problem === undefined ? header.example : undefined,
    });
  }
  return out;
}

/**
 * Whether an encoding's `style` and `explode` apply to a request body of this media type: OpenAPI
 * 3.0 reads them for application/x-www-form-urlencoded alone, 3.1 for multipart/form-data too;
 * every other type ignores them (a part's text is its value).
 */
function stylesApply(mediaType: string, dialect: string): boolean {
  const type = mediaType.split(';')[0].trim().toLowerCase();
  return type === 'application/x-www-form-urlencoded' || (type === 'multipart/form-data' && dialect === 'openapi-3.1');
}

/** A media type's `encoding`: per field, its contentType, and its style and explode where they apply (what form decoding needs). */
function lowerEncoding(raw: unknown, styles: boolean): IrContent['encoding'] {
  if (!raw || typeof raw !== 'object') return undefined;
  const out: NonNullable<IrContent['encoding']> = {};
  for (const [field, entry] of Object.entries(raw as Obj)) {
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as Obj;
    out[field] = {
      ...(typeof e.contentType === 'string' ? { contentType: e.contentType } : {}),
      ...(styles && typeof e.style === 'string' ? { style: e.style } : {}),
      ...(styles && typeof e.explode === 'boolean' ? { explode: e.explode } : {}),
    };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Form fields that may not be sent empty: Swagger 2.0 formData parameters without allowEmptyValue, as loading marks them. */
function nonEmptyFields(document: Obj, raw: unknown): string[] {
  const schema = deref(document, raw as Obj | undefined);
  const properties = schema && typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as Obj) : {};
  return Object.keys(properties).filter((name) => (properties[name] as Obj | undefined)?.[NON_EMPTY_FIELD] === true);
}

/** `type/subtype` with optional parameters, wildcards included (`*` for either part). */
const MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+*-]+\/[A-Za-z0-9!#$&^_.+*-]+\s*(;.*)?$/;

function lowerContents(ctx: LowerContext, raw: unknown, where: string): IrContent[] {
  if (!raw || typeof raw !== 'object') return [];
  const out: IrContent[] = [];
  for (const [mediaType, entry] of Object.entries(raw as Obj)) {
    if (!MEDIA_TYPE.test(mediaType)) {
      ctx.warnings.push(`${where}: content key ${JSON.stringify(mediaType)} is not a media type; ignored`);
      continue;
    }
    const media = (entry ?? {}) as Obj;
    const sequence = lowerSequence(ctx.document, ctx.registry, mediaType, media);
    out.push({
      mediaType,
      schema: media.schema === undefined ? undefined : ctx.registry.normalize(media.schema),
      examples: collectExamples(ctx.document, media),
      ...(sequence === undefined ? {} : { sequence }),
    });
  }
  return out;
}

/**
 * The schemes an operation's effective security names, and its requirement objects: any one of
 * them satisfied lets a request through, and one is satisfied when all its schemes are (`{}`, no
 * scheme, makes security optional). A requirement naming a scheme the description does not
 * declare cannot be checked and is left out.
 */
function lowerSecurity(document: Obj, raw: unknown): { security: IrSecurity[]; securityRequirements: string[][]; requiredScopes: Array<Record<string, string[]>> } {
  const schemes = ((document.components as Obj | undefined)?.securitySchemes ?? {}) as Obj;
  const security: IrSecurity[] = [];
  const securityRequirements: string[][] = [];
  const requiredScopes: Array<Record<string, string[]>> = [];
  const seen = new Set<string>();
  for (const requirement of asList(raw)) {
    if (!requirement || typeof requirement !== 'object' || Array.isArray(requirement)) continue;
    const names = Object.keys(requirement);
    const resolved = names.map((name) => ({ name, scheme: deref(document, schemes[name] as Obj | undefined) }));
    if (resolved.some((r) => !r.scheme || typeof r.scheme.type !== 'string')) continue;
    securityRequirements.push(names);
    const scopes: Record<string, string[]> = {};
    for (const name of names) {
      const listed = asList((requirement as Obj)[name]).filter((s): s is string => typeof s === 'string' && s !== '');
      if (listed.length > 0) scopes[name] = listed;
    }
    requiredScopes.push(scopes);
    for (const { name, scheme } of resolved) {
      if (seen.has(name)) continue;
      seen.add(name);
      const type = String(scheme!.type);
      security.push({
        scheme: name,
        type,
        detail: type === 'http' ? String(scheme!.scheme ?? '').toLowerCase() : type === 'apiKey' ? String(scheme!.in ?? '') : undefined,
        name: type === 'apiKey' && typeof scheme!.name === 'string' ? scheme!.name : undefined,
        bearerFormat: type === 'http' && typeof scheme!.bearerFormat === 'string' ? scheme!.bearerFormat : undefined,
      });
    }
  }
  return { security, securityRequirements, requiredScopes };
}

function firstContentSchema(content: unknown): unknown {
  if (!content || typeof content !== 'object') return undefined;
  const first = Object.values(content as Obj)[0] as Obj | undefined;
  return first?.schema;
}

export function joinPath(base: string, path: string): string {
  const joined = `${base}/${path.replace(/^\/+/, '')}`;
  return joined.length > 1 ? joined.replace(/\/+$/, '') || '/' : '/';
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
