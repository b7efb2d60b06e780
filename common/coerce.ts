import type { ParamMeta, ValueKind } from './contract/index.js';

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

/** `filter[status]=x&filter[age]=3` -> {status: 'x', age: '3'} for deepObject parameters. */
export function deepObjectValue(name: string, query: ReadonlyMap<string, string[]>): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  const prefix = `${name}[`;
  for (const [key, values] of query) {
    if (key.startsWith(prefix) && key.endsWith(']')) (out ??= {})[key.slice(prefix.length, -1)] = values[0];
  }
  return out;
}
