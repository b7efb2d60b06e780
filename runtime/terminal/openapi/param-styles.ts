import type { ParamMeta, ValueShape } from '../../../common/contract/index.js';
import { bracketPath, coerceShape, paramValue, setPath } from '../../../common/coerce.js';
import { ownKey } from '../../../common/reserved-keys.js';

const DELIMITERS: Record<string, string> = { spaceDelimited: ' ', pipeDelimited: '|' };

/** `k,v,k,v` as an object; undefined when the list is not pairs. Throws ReservedKeyError for a key such as `__proto__`. */
function pairs(p: ParamMeta, parts: string[]): Record<string, string> | undefined {
  if (parts.length % 2 !== 0) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i < parts.length; i += 2) out[ownKey(parts[i], where(p))] = parts[i + 1];
  return out;
}

/** `k=v` items as an object; undefined when one has no `=`. Throws ReservedKeyError for a key such as `__proto__`. */
function assignments(p: ParamMeta, parts: string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq === -1) return undefined;
    out[ownKey(part.slice(0, eq), where(p))] = part.slice(eq + 1);
  }
  return out;
}

/** How an issue names the parameter a key came from. */
const where = (p: ParamMeta): string => `${p.in} parameter '${p.name}'`;

const wantsObject = (shape: ValueShape): boolean => typeof shape !== 'string' && ('object' in shape || ('oneOf' in shape && shape.oneOf.some((b) => typeof b !== 'string' && 'object' in b)));
const wantsArray = (shape: ValueShape): boolean => shape === 'array' || (typeof shape !== 'string' && ('array' in shape || ('oneOf' in shape && shape.oneOf.some((b) => typeof b !== 'string' && 'array' in b))));

/**
 * A path or header value in the simple, label or matrix style (RFC 6570 as OpenAPI 3 uses it):
 * `3,4,5` / `.3.4.5` / `;id=3;id=4`, objects as `k,v,k,v` or, exploded, `k=v`. What is not an
 * object or an array stays the scalar text.
 */
function pathStyled(p: ParamMeta, shape: ValueShape, text: string): unknown {
  let value = text;
  let separator = ',';
  if (p.style === 'label') {
    if (!value.startsWith('.')) return text;
    value = value.slice(1);
    if (p.explode) separator = '.';
  } else if (p.style === 'matrix') {
    if (!value.startsWith(';')) return text;
    value = value.slice(1);
    if (p.explode && wantsObject(shape)) return assignments(p, value.split(';')) ?? text;
    if (p.explode && wantsArray(shape)) return value.split(';').map((part) => part.slice(part.indexOf('=') + 1));
    const prefix = `${p.declaredName}=`;
    if (!value.startsWith(prefix)) return text;
    value = value.slice(prefix.length);
  }
  if (wantsObject(shape)) {
    const parts = value.split(separator);
    const object = p.explode ? assignments(p, parts) : pairs(p, parts);
    if (object !== undefined) return object;
  }
  if (wantsArray(shape)) return value === '' ? [] : value.split(separator);
  return value;
}

/** Query keys spread over by a form-exploded object: its properties, or with additionalProperties every undeclared key. */
function spreadObject(p: ParamMeta, shape: ValueShape, query: ReadonlyMap<string, string[]>, declared: ReadonlySet<string>): Record<string, string> | undefined {
  const object = typeof shape !== 'string' && 'object' in shape ? shape : undefined;
  if (object === undefined) return undefined;
  let out: Record<string, string> | undefined;
  for (const [key, values] of query) {
    if (Object.hasOwn(object.object, key) || (object.rest !== undefined && !declared.has(key))) (out ??= {})[ownKey(key, where(p))] = values[0];
  }
  return out;
}

/** `name[a][b]=…` keys (deepObject, and the bracket convention for arrays: `name[]=…`). */
function bracketed(p: ParamMeta, query: ReadonlyMap<string, string[]>): unknown {
  const { name } = p;
  const holder: Record<string, unknown> = {};
  let found = false;
  for (const [key, values] of query) {
    if (!key.startsWith(`${name}[`)) continue;
    const path = bracketPath(key);
    if (path === undefined || path[0] !== name) continue;
    setPath(holder, path, values, where(p));
    found = true;
  }
  return found ? holder[name] : undefined;
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Where a request carries its parameters. */
export interface ParamSources {
  path: Record<string, string>;
  query: ReadonlyMap<string, string[]>;
  headers: Record<string, string>;
  cookies: () => Record<string, string>;
  /** Names of the operation's query parameters (a form-exploded free-form object takes the other keys). */
  queryNames: () => ReadonlySet<string>;
}

/**
 * A parameter's value as its style serialises it, coerced to its schema; undefined when absent.
 * Scalars and arrays of scalars take the quick path of paramValue; objects and unions are
 * decoded by style, then coerced leaf by leaf. Throws ReservedKeyError when the request names a
 * key of an object `__proto__`, `constructor` or `prototype`.
 */
export function readParam(p: ParamMeta, from: ParamSources): unknown {
  const shape = p.shape;
  if (p.in === 'query') {
    if (p.style === 'deepObject' || (shape !== undefined && from.query.get(p.name) === undefined)) {
      const nested = bracketed(p, from.query);
      if (nested !== undefined) return coerceShape(nested, shape ?? p.kind);
    }
    const raw = from.query.get(p.name) ?? (p.kind === 'array' ? from.query.get(`${p.name}[]`) : undefined);
    if (raw === undefined) {
      if (p.style === 'form' && p.explode && shape !== undefined) {
        const spread = spreadObject(p, shape, from.query, from.queryNames());
        return spread === undefined ? undefined : coerceShape(spread, shape);
      }
      return undefined;
    }
    if (p.style === 'json') return json(raw[0]);
    if (shape === undefined) return paramValue(p, raw);
    if (wantsObject(shape) && !(p.style === 'form' && p.explode)) {
      const object = pairs(p, raw[0].split(DELIMITERS[p.style] ?? ','));
      if (object !== undefined) return coerceShape(object, shape);
    }
    if (wantsArray(shape)) return coerceShape(p.explode && p.style === 'form' ? raw : raw[0].split(DELIMITERS[p.style] ?? ','), shape);
    return coerceShape(raw[0], shape);
  }
  const text = p.in === 'path' ? from.path[p.name] : p.in === 'header' ? from.headers[p.name] : from.cookies()[p.name];
  if (text === undefined) return undefined;
  if (p.style === 'json') return json(text);
  if (shape === undefined && p.style !== 'label' && p.style !== 'matrix') return paramValue(p, [text]);
  const effective = shape ?? (p.kind === 'array' ? { array: p.items } : p.kind);
  return coerceShape(p.in === 'cookie' ? pathStyled({ ...p, style: 'simple' }, effective, text) : pathStyled(p, effective, text), effective);
}
