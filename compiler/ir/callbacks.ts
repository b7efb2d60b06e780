import { sample } from 'openapi-sampler';
import { MockError } from '../../common/errors.js';
import { fieldProblem } from '../../common/http-fields.js';
import { checkRuntimeTemplate } from '../../common/runtime-expression.js';
import { MAX_DELAY_MS } from '../../common/bounds.js';
import { collectExamples } from './examples.js';
import { deref } from './pointer.js';

import type { IrCallback, IrWebhook } from './types.js';

type Obj = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const CUSTOM_METHOD = /^(GET|PUT|POST|DELETE|PATCH|OPTIONS|HEAD|TRACE)$/;

/**
 * An operation's `callbacks` (OpenAPI 3.x): each name maps runtime-expression URLs to path items,
 * each of whose operations is one request to send. The body is the request body's example, else
 * a sample of its schema made here by openapi-sampler (Redocly's, the sampler of their docs),
 * so serving never walks a schema.
 */
export function lowerCallbacks(document: Obj, raw: unknown, where: string, warnings: string[]): IrCallback[] {
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
        if (op && typeof op === 'object') out.push({ name, url, method: method.toUpperCase(), headers: {}, ...requestOf(document, op, `${where} callback ${name} ${method.toUpperCase()}`, warnings) });
      }
    }
  }
  return out;
}

/** OpenAPI 3.1 `webhooks`: one entry per name (its first operation). */
export function lowerWebhooks(document: Obj, warnings: string[]): IrWebhook[] {
  const webhooks = document.webhooks;
  if (!webhooks || typeof webhooks !== 'object') return [];
  const out: IrWebhook[] = [];
  for (const [name, rawItem] of Object.entries(webhooks as Obj)) {
    const item = deref(document, rawItem as Obj);
    const method = item && typeof item === 'object' ? METHODS.find((m) => item[m] && typeof item[m] === 'object') : undefined;
    if (method === undefined) continue;
    out.push({ name, method: method.toUpperCase(), ...requestOf(document, item[method] as Obj, `webhook ${name}`, warnings) });
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
