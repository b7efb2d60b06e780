import type { CallbackMeta, CallbackParameter } from '../../common/contract/index.js';
import { parseTemplate, renderTemplate, renderValue, type ExpressionContext, type MessageView, type TemplatePart } from '../../common/runtime-expression.js';
import type { Answer, Exchange } from '../chain/exchange/index.js';
import { configuredDelay, type NamedOperation } from './delays.js';
import type { Outbound } from './outbound.js';
import { applyParameters, clean } from './parameters.js';

const decoder = new TextDecoder();

/** One callback of a route, with what the build serving it holds for it. */
export interface RouteCallback {
  meta: CallbackMeta;
  /** By `meta.parameters` entry: the generator of a value the description does not give, else null. */
  values: ReadonlyArray<(() => unknown) | null>;
  /** The operation that declares it; undefined for a custom route's. */
  operation?: NamedOperation;
}

/** A callback's templates, parsed once per build, and its delay. */
interface Prepared {
  meta: CallbackMeta;
  url: TemplatePart[];
  headers: Array<[string, TemplatePart[]]>;
  parameters: readonly CallbackParameter[];
  values: RouteCallback['values'];
  /** callbacks.delays, else the callback's own (x-mock-delay-ms, a custom route's delay_ms); undefined: callbacks.delay_ms. */
  delayMs: number | undefined;
}

/**
 * OpenAPI callbacks (and custom routes' own): after a route's answer is written, each of its
 * callbacks' runtime expressions is evaluated against the exchange at once (the exchange is not
 * kept), its parameters' values taken or generated, and the request is handed to the outbound
 * sender, which waits, sends and retries off the request path. Only successful (2xx) answers
 * send: a refused request did not do what the operation describes.
 */
export class CallbackSender {
  private readonly prepared = new WeakMap<RouteCallback, Prepared>();

  constructor(private readonly outbound: Outbound) {}

  send(ex: Exchange, answer: Answer, callbacks: readonly RouteCallback[], trigger: string): void {
    if (answer.status < 200 || answer.status > 299) return;
    const cx = expressionContext(ex, answer);
    for (const callback of callbacks) this.sendOne(this.prepare(callback), cx, trigger);
  }

  private prepare(callback: RouteCallback): Prepared {
    let prepared = this.prepared.get(callback);
    if (prepared === undefined) {
      const { meta, values, operation } = callback;
      const configured = operation === undefined ? undefined : configuredDelay(this.outbound.settings.delays ?? [], operation, meta.name);
      prepared = {
        meta,
        // the build checked every template: they parse
        url: parseTemplate(meta.url),
        headers: Object.entries(meta.headers).map(([name, value]) => [name, parseTemplate(value)]),
        parameters: meta.parameters ?? [],
        values,
        delayMs: configured ?? meta.delayMs,
      };
      this.prepared.set(callback, prepared);
    }
    return prepared;
  }

  private sendOne({ meta, url: urlTemplate, headers: headerTemplates, parameters, values, delayMs }: Prepared, cx: ExpressionContext, trigger: string): void {
    const about = { kind: 'callback' as const, name: meta.name, trigger };
    const missing: string[] = [];
    const text = renderTemplate(urlTemplate, cx, missing);
    // the request did not give what the URL is made of (an optional progressUrl header left out): this callback does not apply to it
    if (missing.length > 0) {
      this.outbound.skip(about, `${missing.join(', ')} had no value in the exchange`);
      return;
    }
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      this.outbound.refuse(meta.method, text.slice(0, 200), about, `${meta.url} gave ${JSON.stringify(text.slice(0, 200))}, not an absolute URL`);
      return;
    }
    const headers: Record<string, string> = { 'user-agent': 'mock-callbacks' };
    applyParameters(url, headers, parameters, values);
    for (const [name, parts] of headerTemplates) headers[name] = clean(renderTemplate(parts, cx));
    let body: string | undefined;
    if (meta.body !== undefined) {
      const value = meta.expandBody === true ? expandStrings(meta.body, cx) : meta.body;
      body = typeof value === 'string' ? value : JSON.stringify(value);
      headers['content-type'] ??= meta.contentType ?? 'application/json';
    }
    void this.outbound.deliver({ method: meta.method, url, headers, body }, about, delayMs);
  }
}

/** Every string of a JSON value with its runtime expressions evaluated. */
function expandStrings(value: unknown, cx: ExpressionContext): unknown {
  if (typeof value === 'string') return renderValue(value, cx);
  if (Array.isArray(value)) return value.map((item) => expandStrings(item, cx));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandStrings(item, cx)]));
  return value;
}

/** The exchange and its answer as runtime expressions read them; bodies parsed only when an expression asks. */
function expressionContext(ex: Exchange, answer: Answer): ExpressionContext {
  const query = ex.query;
  const request: MessageView = {
    header: (name) => ex.headers[name],
    query: (name) => query.get(name)?.[0],
    path: (name) => ex.params[name],
    body: once(() => ex.json ?? (ex.body === undefined || ex.body.length === 0 ? undefined : ex.body.toString('utf8'))),
  };
  const answerHeaders = answer.headers;
  const answerBody = answer.body;
  const response: MessageView = {
    header: (name) => answerHeaders.find(([key]) => key.toLowerCase() === name)?.[1],
    query: () => undefined,
    path: () => undefined,
    body: once(() => parsed(typeof answerBody === 'string' ? answerBody : decoder.decode(answerBody))),
  };
  const host = ex.headers.host ?? 'localhost';
  return { url: `http://${host}${ex.path}${ex.rawQuery === '' ? '' : `?${ex.rawQuery}`}`, method: ex.method, statusCode: answer.status, request, response };
}

function parsed(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
