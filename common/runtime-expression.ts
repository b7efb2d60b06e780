/**
 * OpenAPI 3.x runtime expressions (OAS 3.1.0 §4.8.20.4, the same grammar in 3.0):
 *
 *   expression = "$url" / "$method" / "$statusCode" / "$request." source / "$response." source
 *   source = header-reference / query-reference / path-reference / body-reference
 *   header-reference = "header." token; query-reference = "query." name; path-reference = "path." name
 *   body-reference = "body" ["#" json-pointer]
 *
 * and strings that embed them in braces (`{$request.query.callbackUrl}/data`). Parsed by the
 * compiler (a bad one fails the build) and evaluated by the runtime after an answer is written.
 * Shared here because both sides need it and neither may import the other.
 */
export type RuntimeExpression =
  { kind: 'url' | 'method' | 'statusCode' } | { kind: 'header' | 'query' | 'path'; of: 'request' | 'response'; name: string } | { kind: 'body'; of: 'request' | 'response'; pointer: string[] | null };

/** A template's parts: literal text and expressions, in order. */
export type TemplatePart = string | RuntimeExpression;

/** What an expression reads: one side of the exchange. */
export interface MessageView {
  /** A header by lower-case name. */
  header(name: string): string | undefined;
  /** A query parameter's first value. */
  query(name: string): string | undefined;
  /** A path parameter. */
  path(name: string): string | undefined;
  /** The body as JSON when it is JSON, else its text; undefined when empty. */
  body(): unknown;
}

export interface ExpressionContext {
  /** The request's URL as the client addressed it. */
  url: string;
  method: string;
  statusCode: number;
  request: MessageView;
  response: MessageView;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Parses one expression (without braces); throws an Error saying what is wrong. */
export function parseExpression(text: string): RuntimeExpression {
  if (text === '$url') return { kind: 'url' };
  if (text === '$method') return { kind: 'method' };
  if (text === '$statusCode') return { kind: 'statusCode' };
  const side = /^\$(request|response)\.(.*)$/s.exec(text);
  if (side === null) throw new Error(`${JSON.stringify(text)} is not a runtime expression ($url, $method, $statusCode, $request.…, $response.…)`);
  const of = side[1] as 'request' | 'response';
  const source = side[2];
  const named = /^(header|query|path)\.(.*)$/s.exec(source);
  if (named !== null) {
    const [, kind, name] = named;
    if (kind === 'header' && !TOKEN.test(name)) throw new Error(`${JSON.stringify(text)}: a header reference needs a header name ($${of}.header.X-Callback)`);
    if (kind !== 'header' && name === '') throw new Error(`${JSON.stringify(text)}: a ${kind} reference needs a name ($${of}.${kind}.id)`);
    if (kind === 'path' && of === 'response') throw new Error(`${JSON.stringify(text)}: a response has no path parameters`);
    return { kind: kind as 'header' | 'query' | 'path', of, name: kind === 'header' ? name.toLowerCase() : name };
  }
  if (source === 'body') return { kind: 'body', of, pointer: null };
  if (source.startsWith('body#')) return { kind: 'body', of, pointer: parsePointer(source.slice(5), text) };
  throw new Error(`${JSON.stringify(text)}: expected header.<name>, query.<name>, path.<name> or body[#/pointer] after $${of}.`);
}

/** RFC 6901: `/a/b~1c` is ['a', 'b/c']; `` is the whole document. */
function parsePointer(pointer: string, text: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`${JSON.stringify(text)}: a JSON pointer starts with / (#/id)`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw new Error(`${JSON.stringify(text)}: ~ in a JSON pointer is ~0 (~) or ~1 (/)`);
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/**
 * A string as its parts: `{$…}` are expressions, everything else literal. A string that is a
 * whole expression without braces (`$request.body#/url`, as links write them) is one too.
 */
export function parseTemplate(text: string): TemplatePart[] {
  if (text.startsWith('$')) return [parseExpression(text)];
  const parts: TemplatePart[] = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{$', at);
    if (open === -1) break;
    const close = text.indexOf('}', open);
    if (close === -1) throw new Error(`${JSON.stringify(text)}: the expression at offset ${open} has no closing }`);
    if (open > at) parts.push(text.slice(at, open));
    parts.push(parseExpression(text.slice(open + 1, close)));
    at = close + 1;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** What is wrong with a template, or undefined. */
export function checkRuntimeTemplate(text: string): string | undefined {
  try {
    parseTemplate(text);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** An expression's value: a string, number, JSON value, or undefined when the exchange has none. */
export function evaluateExpression(expression: RuntimeExpression, cx: ExpressionContext): unknown {
  switch (expression.kind) {
    case 'url':
      return cx.url;
    case 'method':
      return cx.method;
    case 'statusCode':
      return cx.statusCode;
    case 'header':
      return cx[expression.of].header(expression.name);
    case 'query':
      return cx[expression.of].query(expression.name);
    case 'path':
      return cx[expression.of].path(expression.name);
    case 'body': {
      const body = cx[expression.of].body();
      return expression.pointer === null ? body : pointerValue(body, expression.pointer);
    }
  }
}

function pointerValue(value: unknown, tokens: readonly string[]): unknown {
  let node = value;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object') return undefined;
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
      node = (node as Record<string, unknown>)[token];
    }
  }
  return node;
}

/** A value as text in a string: JSON for objects and arrays, nothing for a missing one. */
export function expressionText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A template's text with its expressions' values; `missing` lists the expressions that had none. */
export function renderTemplate(parts: readonly TemplatePart[], cx: ExpressionContext, missing?: string[]): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') out += part;
    else {
      const value = evaluateExpression(part, cx);
      if (value === undefined && missing !== undefined) missing.push(describeExpression(part));
      out += expressionText(value);
    }
  }
  return out;
}

/** A string of a callback's body: a whole `{$…}` keeps its value's type (an object, a number); embedded ones become text. */
export function renderValue(text: string, cx: ExpressionContext): unknown {
  let parts: TemplatePart[];
  try {
    parts = parseTemplate(text);
  } catch {
    return text;
  }
  if (parts.length === 1 && typeof parts[0] !== 'string') return evaluateExpression(parts[0], cx) ?? null;
  return renderTemplate(parts, cx);
}

export function describeExpression(expression: RuntimeExpression): string {
  switch (expression.kind) {
    case 'url':
    case 'method':
    case 'statusCode':
      return `$${expression.kind}`;
    case 'body':
      return `$${expression.of}.body${expression.pointer === null ? '' : `#${expression.pointer.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`}`;
    default:
      return `$${expression.of}.${expression.kind}.${expression.name}`;
  }
}
