import type { ParamMeta, ValueKind, ValueShape } from './contract/index.js';
import { ownKey } from './reserved-keys.js';

/** Turns a string into the JSON type its schema expects; leaves it alone when it does not fit, so validation reports it. */
export function coerce(value: string, kind: ValueKind | string): unknown {
  switch (kind) {
    case 'integer':
      return /^-?\d+$/.test(value) ? Number(value) : value;
    case 'number':
      return /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value) ? Number(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'null':
      return value === '' || value === 'null' ? null : value;
    default:
      return value;
  }
}

const DELIMITERS: Record<string, string> = { spaceDelimited: ' ', pipeDelimited: '|' };

/** A parameter's value from its raw occurrences, following its OpenAPI style. */
export function paramValue(param: ParamMeta, raw: string[]): unknown {
  if (param.kind === 'array') {
    const delimiter = DELIMITERS[param.style] ?? ',';
    const parts = param.in === 'query' && param.explode && param.style === 'form' ? raw : raw[0] === '' ? [] : raw[0].split(delimiter);
    return parts.map((p) => coerce(p, param.items));
  }
  return coerce(raw[0], param.kind);
}

type Structured = Exclude<ValueShape, string>;
const isObjectShape = (shape: ValueShape): shape is { object: Record<string, ValueShape>; rest?: ValueShape } => typeof shape !== 'string' && 'object' in shape;
const isArrayShape = (shape: ValueShape): shape is { array: ValueShape } => typeof shape !== 'string' && 'array' in shape;
const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const INDEX = /^(0|[1-9]\d{0,5})$/;

/** `{"0": a, "1": b}` (what `items[0]=a&items[1]=b` decodes to) as `[a, b]`; undefined when the keys are not indexes. */
function indexed(value: Record<string, unknown>): unknown[] | undefined {
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((k) => INDEX.test(k))) return undefined;
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
}

/**
 * Text decoded from a request (strings, and arrays and objects of them) coerced to `shape`:
 * leaves become the scalar kinds their schema declares, a lone string becomes a one-item array
 * where an array is declared, index-keyed objects become arrays, and alternatives are tried in
 * order (the first that takes the value whole). What does not fit stays as it is, for validation
 * to report.
 */
export function coerceShape(value: unknown, shape: ValueShape): unknown {
  if (typeof shape === 'string') {
    if (typeof value === 'string') return coerce(value, shape);
    if (shape === 'array' && isRecord(value)) return indexed(value) ?? value;
    return value;
  }
  return coerceStructured(value, shape);
}

function coerceStructured(value: unknown, shape: Structured): unknown {
  if ('oneOf' in shape) {
    for (const branch of shape.oneOf) {
      if (typeof value === 'string') {
        if (branch === 'string' || branch === 'any') return value;
        const coerced = typeof branch === 'string' ? coerce(value, branch) : undefined;
        if (coerced !== undefined && coerced !== value) return coerced;
      } else if ((isRecord(value) && (isObjectShape(branch) || (isArrayShape(branch) && indexed(value) !== undefined))) || (Array.isArray(value) && isArrayShape(branch))) {
        return coerceStructured(value, branch as Structured);
      }
    }
    return value;
  }
  if ('array' in shape) {
    if (typeof value === 'string') return [coerceShape(value, shape.array)];
    const list = Array.isArray(value) ? value : isRecord(value) ? indexed(value) : undefined;
    return list === undefined ? value : list.map((item) => coerceShape(item, shape.array));
  }
  if (!isRecord(value)) return value;
  // keys are the request's: declared ones are own properties of the shape, and fromEntries defines
  // a `__proto__` key (JSON text of a field may hold one) as data rather than setting the prototype
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const inner = Object.hasOwn(shape.object, key) ? shape.object[key] : shape.rest;
      return [key, inner === undefined ? item : coerceShape(item, inner)];
    }),
  );
}

/**
 * The bracket convention of real clients for nested fields and query keys (Stripe, Rails, PHP,
 * qs): `metadata[order]=6735`, `items[0][price]=5`, `expand[]=a`. Returns the path of a key
 * (`['items', '0', 'price']`, `[]` standing for "append") or undefined when it has no brackets
 * or they are malformed.
 */
export function bracketPath(key: string): string[] | undefined {
  const open = key.indexOf('[');
  if (open <= 0 || !key.endsWith(']')) return undefined;
  const path = [key.slice(0, open)];
  let rest = key.slice(open);
  while (rest.length > 0) {
    const close = rest.indexOf(']');
    if (rest[0] !== '[' || close === -1) return undefined;
    const segment = rest.slice(1, close);
    if (segment.includes('[')) return undefined;
    path.push(segment);
    rest = rest.slice(close + 1);
  }
  return path;
}

/** Most levels a bracketed key may nest: keeps a hostile key from building deep structures. */
const MAX_BRACKET_DEPTH = 8;

/**
 * Sets `values` at `path` in `target`: `[]` segments append, repeated plain keys collect into
 * an array. Only own properties are walked (`a[toString][call]` must not reach the function every
 * object inherits), and a reserved name anywhere in the path throws ReservedKeyError naming
 * `where` (no `__proto__[polluted]=1`).
 */
export function setPath(target: Record<string, unknown>, path: string[], values: string[], where: string): void {
  for (const segment of path) ownKey(segment, where);
  if (path.length > MAX_BRACKET_DEPTH) return;
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < path.length; i++) {
    const last = i === path.length - 1;
    const segment = path[i];
    if (Array.isArray(node)) {
      if (segment !== '') return;
      if (last) node.push(...values);
      else {
        const child: Record<string, unknown> = {};
        node.push(child);
        node = child;
      }
      continue;
    }
    const existing = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (last) {
      if (segment === '') return;
      node[segment] = existing === undefined ? (values.length === 1 ? values[0] : values) : [existing, ...values].flat();
      return;
    }
    const next = path[i + 1] === '' ? [] : {};
    if (existing === undefined || typeof existing === 'string') node[segment] = next;
    else if (Array.isArray(next) !== Array.isArray(existing)) return;
    node = node[segment] as Record<string, unknown> | unknown[];
  }
}
