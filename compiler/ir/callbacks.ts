import { sample } from 'openapi-sampler';
import { MockError } from '../../common/errors.js';
import { fieldProblem, isFieldName } from '../../common/http-fields.js';
import { checkRuntimeTemplate } from '../../common/runtime-expression.js';
import { MAX_DELAY_MS } from '../../common/bounds.js';
import { collectExamples } from './examples.js';
import { deref } from './pointer.js';

import type { IrCallback, IrCallbackParameter, IrWebhook, JsonSchema } from './types.js';

type Obj = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const CUSTOM_METHOD = /^(GET|PUT|POST|DELETE|PATCH|OPTIONS|HEAD|TRACE)$/;

/** The extension that gives one OpenAPI callback its own delay (on its operation, else its path item). */
export const DELAY_EXTENSION = 'x-mock-delay-ms';
/** OpenAPI: header parameters of these names are ignored (the HTTP layer drives them). */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
/** Headers the sender or the HTTP layer writes (framing, the host, Standard Webhooks' signature): a parameter never replaces them. */
const OWNED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer', 'te', 'host', 'expect', 'webhook-id', 'webhook-timestamp', 'webhook-signature']);
const LOCATIONS = new Set(['header', 'query', 'cookie']);

/**
 * An operation's `callbacks` (OpenAPI 3.x): each name maps runtime-expression URLs to path items,
 * each of whose operations is one request to send. The body is the request body's example, else
 * a sample of its schema made here by openapi-sampler (Redocly's, the sampler of their docs),
 * so serving never walks a schema. Its header, query and cookie parameters carry the
 * description's value, or the schema the build emits a generator for (values made at each send).
 */
export function lowerCallbacks(document: Obj, raw: unknown, where: string, warnings: string[], normalize: (schema: unknown) => JsonSchema): IrCallback[] {
  const out: IrCallback[] = [];
  const callbacks = deref(document, raw as Obj | undefined);
  if (!callbacks || typeof callbacks !== 'object') return out;
  for (const [name, rawCallback] of Object.entries(callbacks)) {
    const callback = deref(document, rawCallback as Obj);
    if (!callback || typeof callback !== 'object') continue;
    for (const [url, rawItem] of Object.entries(callback)) {
      const problem = checkRuntimeTemplate(url);
      if (problem !== undefined) {
        warnings.push(`${where} callback ${name}: ${JSON.stringify(url)} is left out: ${problem}`);
        continue;
      }
      const item = deref(document, rawItem as Obj);
      if (!item || typeof item !== 'object') continue;
      for (const method of METHODS) {
        const op = item[method] as Obj | undefined;
        if (!op || typeof op !== 'object') continue;
        const at = `${where} callback ${name} ${method.toUpperCase()}`;
        const parameters = lowerParameters(document, [...list(item.parameters), ...list(op.parameters)], at, warnings, normalize);
        const delayMs = delayOf(op[DELAY_EXTENSION] ?? item[DELAY_EXTENSION], at, warnings);
        out.push({
          name,
          url,
          method: method.toUpperCase(),
          headers: {},
          ...requestOf(document, op, at, warnings),
          ...(delayMs === undefined ? {} : { delayMs }),
          ...(parameters.length === 0 ? {} : { parameters }),
        });
      }
    }
  }
  return out;
}

/**
 * The parameters a callback or webhook sends (path item's, then the operation's, which override by name and
 * location): every required one, and an optional one when the description gives it a value
 * (example, examples, the schema's example or default), since an optional parameter without one
 * is what a client leaves out. A required one without a value keeps its schema, for the build's
 * generator. Runtime expressions are only for callback URLs (OpenAPI § Callback Object): a
 * value is sent as written.
 */
function lowerParameters(document: Obj, raw: unknown[], where: string, warnings: string[], normalize: (schema: unknown) => JsonSchema): IrCallbackParameter[] {
  const byKey = new Map<string, IrCallbackParameter>();
  for (const entry of raw) {
    const p = deref(document, entry as Obj);
    if (!p || typeof p.name !== 'string' || typeof p.in !== 'string' || !LOCATIONS.has(p.in)) continue;
    const location = p.in as IrCallbackParameter['in'];
    const lower = p.name.toLowerCase();
    if (location === 'header' && IGNORED_HEADERS.has(lower)) continue;
    if (location === 'header' && !isFieldName(p.name)) {
      warnings.push(`${where}: header parameter ${JSON.stringify(p.name)} is not sent: not a header name`);
      continue;
    }
    if (location === 'header' && OWNED_HEADERS.has(lower)) {
      warnings.push(`${where}: header parameter ${p.name} is not sent: the sender writes that header itself`);
      continue;
    }
    const key = `${location}:${location === 'header' ? lower : p.name}`;
    byKey.delete(key);
    const [type, rawMedia] = Object.entries((p.content ?? {}) as Obj)[0] ?? [];
    const media = rawMedia && typeof rawMedia === 'object' ? (rawMedia as Obj) : undefined;
    const style = p.schema === undefined && media !== undefined && /json/i.test(type ?? '') ? 'json' : typeof p.style === 'string' ? p.style : location === 'header' ? 'simple' : 'form';
    const shape = { name: p.name, in: location, style, explode: typeof p.explode === 'boolean' ? p.explode : style === 'form' };
    const schema = p.schema ?? media?.schema;
    const value = (collectExamples(document, p)[0] ?? (media === undefined ? undefined : collectExamples(document, media)[0]))?.value ?? deref(document, schema as Obj | undefined)?.default;
    if (value !== undefined) byKey.set(key, { ...shape, value });
    else if (p.required === true) byKey.set(key, { ...shape, schema: normalize(schema ?? { type: 'string' }) });
  }
  return [...byKey.values()];
}

/** x-mock-delay-ms: whole milliseconds within the bound every delay has; anything else is a build warning and ignored. */
function delayOf(raw: unknown, where: string, warnings: string[]): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw <= MAX_DELAY_MS) return raw;
  warnings.push(`${where}: ${DELAY_EXTENSION} ${JSON.stringify(raw)} is ignored: expected whole milliseconds from 0 to ${MAX_DELAY_MS}`);
  return undefined;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** OpenAPI 3.1 `webhooks`: one entry per name (its first operation). */
export function lowerWebhooks(document: Obj, warnings: string[], normalize: (schema: unknown) => JsonSchema): IrWebhook[] {
  const webhooks = document.webhooks;
  if (!webhooks || typeof webhooks !== 'object') return [];
  const out: IrWebhook[] = [];
  for (const [name, rawItem] of Object.entries(webhooks as Obj)) {
    const item = deref(document, rawItem as Obj);
    const method = item && typeof item === 'object' ? METHODS.find((m) => item[m] && typeof item[m] === 'object') : undefined;
    if (method === undefined) continue;
    const op = item[method] as Obj;
    const at = `webhook ${name}`;
    const parameters = lowerParameters(document, [...list(item.parameters), ...list(op.parameters)], at, warnings, normalize);
    out.push({ name, method: method.toUpperCase(), ...requestOf(document, op, at, warnings), ...(parameters.length === 0 ? {} : { parameters }) });
  }
  return out;
}

/** The content type and body of an operation's request: the first JSON media type (else the first), its example or a sample. */
function requestOf(document: Obj, op: Obj, where: string, warnings: string[]): { contentType: string | null; body?: unknown } {
  const body = deref(document, op.requestBody as Obj | undefined);
  const content = body && typeof body === 'object' ? (body.content as Obj | undefined) : undefined;
  if (!content || typeof content !== 'object') return { contentType: null };
  const types = Object.keys(content);
  const type = types.find((t) => /json/i.test(t)) ?? types[0];
  if (type === undefined) return { contentType: null };
  const media = (content[type] ?? {}) as Obj;
  const example = collectExamples(document, media)[0];
  if (example !== undefined) return { contentType: type, body: example.value };
  if (media.schema === undefined) return { contentType: type };
  try {
    return { contentType: type, body: sample(media.schema as never, { skipReadOnly: true, quiet: true }, document) };
  } catch (e) {
    warnings.push(`${where}: no body could be sampled from its schema (${(e as Error).message}); it is sent without one`);
    return { contentType: type };
  }
}

/** A custom route's `callbacks` (mock.yaml http.routes[].callbacks): checked here, so a bad one fails the build. */
export function lowerRouteCallbacks(raw: unknown, where: string): IrCallback[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail(`${where}: expected a list of {url, method, headers, body}`);
  return raw.map((entry, i) => {
    const at = `${where}[${i}]`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) fail(`${at}: expected an object with "url"`);
    const { url, method = 'POST', headers = {}, body, content_type: contentType, name, delay_ms: delayMs } = entry as Obj;
    if (delayMs !== undefined && (typeof delayMs !== 'number' || !Number.isInteger(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS)) {
      fail(`${at}.delay_ms: expected whole milliseconds from 0 to ${MAX_DELAY_MS}, got ${JSON.stringify(delayMs)}`);
    }
    if (typeof url !== 'string' || url === '') fail(`${at}.url: expected a URL or runtime expression such as {$request.body#/callbackUrl}`);
    const problem = checkRuntimeTemplate(url);
    if (problem !== undefined) fail(`${at}.url: ${problem}`);
    const upper = String(method).toUpperCase();
    if (!CUSTOM_METHOD.test(upper)) fail(`${at}.method: expected an HTTP method, got ${JSON.stringify(method)}`);
    if (!headers || typeof headers !== 'object' || Array.isArray(headers)) fail(`${at}.headers: expected a map of names to strings`);
    const lowered: Record<string, string> = {};
    for (const [key, value] of Object.entries(headers as Obj)) {
      const text = String(value);
      const fieldIssue = fieldProblem(key, text) ?? checkRuntimeTemplate(text);
      if (fieldIssue !== undefined) fail(`${at}.headers: ${JSON.stringify(key)} ${fieldIssue}`);
      lowered[key.toLowerCase()] = text;
    }
    return {
      name: typeof name === 'string' ? name : `callbacks[${i}]`,
      url,
      method: upper,
      headers: lowered,
      contentType: typeof contentType === 'string' ? contentType : body === undefined ? null : typeof body === 'string' ? 'text/plain' : 'application/json',
      ...(body === undefined ? {} : { body, expandBody: true as const }),
      ...(delayMs === undefined ? {} : { delayMs: delayMs as number }),
    };
  });
}

function fail(message: string): never {
  throw new MockError('MOCK_ERR_CONFIG_INVALID', message);
}
