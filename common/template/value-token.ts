import type { RequestSource, ValueExpr } from './ast.js';
import { TemplateSyntaxError } from './errors.js';
import { resolveFakerMethod } from './faker-methods.js';
import { parseTimeOffset } from './time-offset.js';

const REQUEST = /^request\.(path|query|header|body)(?:\.([\s\S]*))?$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * Parses one value token (`uuid`, `now-1d`, `randInt 1 6`, `request.body.items.0.id`, one of
 * `vars`...). Undefined when `body` is not a value token, so it stays literal text; a token whose
 * keyword is known but whose rest is malformed is a build error rather than silent text.
 */
export function parseValueToken(body: string, offset: number, vars: readonly string[] = []): ValueExpr | undefined {
  if (body === 'uuid') return { kind: 'uuid' };
  if (vars.includes(body)) return { kind: 'var', name: body };
  if (body === 'rand.float') return { kind: 'randFloat', min: 0, max: 1 };
  if (body === 'now' || /^now\s*[+-]/.test(body)) {
    const offsetMs = parseTimeOffset(body.slice(3).trim());
    if (offsetMs === undefined) throw new TemplateSyntaxError(`invalid time offset in {{${body}}}, expected e.g. now+1h (units s, m, h, d)`, offset);
    return { kind: 'now', offsetMs };
  }
  const words = body.split(/\s+/);
  if (words[0] === 'randInt' || words[0] === 'randFloat') return parseRange(words, offset);
  if (body.startsWith('faker.')) {
    const resolved = resolveFakerMethod(body.slice('faker.'.length));
    if (typeof resolved === 'string') throw new TemplateSyntaxError(resolved, offset);
    return { kind: 'faker', ...resolved };
  }
  const request = REQUEST.exec(body);
  if (request) return parseRequest(request[1] as RequestSource, request[2], offset);
  return undefined;
}

function parseRange(words: string[], offset: number): ValueExpr {
  const [kind, ...bounds] = words as ['randInt' | 'randFloat', ...string[]];
  const usage = `${kind} needs two ${kind === 'randInt' ? 'integer' : 'numeric'} bounds, e.g. {{${kind} 1 10}}`;
  if (bounds.length !== 2 || !bounds.every((b) => NUMBER.test(b))) throw new TemplateSyntaxError(usage, offset);
  const [min, max] = bounds.map(Number);
  if (kind === 'randInt' && !(Number.isSafeInteger(min) && Number.isSafeInteger(max))) throw new TemplateSyntaxError(usage, offset);
  if (min > max) throw new TemplateSyntaxError(`${kind} lower bound ${min} is above upper bound ${max}`, offset);
  return { kind, min, max };
}

function parseRequest(source: RequestSource, rest: string | undefined, offset: number): ValueExpr {
  if (source === 'body') {
    // `{{request.body}}` is the whole body; dotted segments walk into it.
    const path = rest === undefined ? [] : rest.split('.');
    if (path.some((key) => key === '')) throw new TemplateSyntaxError(`empty field name in {{request.body.${rest}}}`, offset);
    return { kind: 'request', source, path };
  }
  if (!rest) throw new TemplateSyntaxError(`{{request.${source}}} needs a name, e.g. {{request.${source}.id}}`, offset);
  // Headers are matched case-insensitively against the context's lower-cased names.
  return { kind: 'request', source, path: [source === 'header' ? rest.toLowerCase() : rest] };
}
