import type { CallbackParameter } from '../../common/contract/index.js';

/**
 * Adds a callback's or webhook's parameters to its request: header fields, query pairs (a name the
 * URL's own query has stays as the URL says) and one Cookie field.
 */
export function applyParameters(url: URL, headers: Record<string, string>, parameters: readonly CallbackParameter[], generated: ReadonlyArray<(() => unknown) | null> | undefined): void {
  if (parameters.length === 0) return;
  const sent = serialise(parameters, (i) => parameters[i].value ?? generated?.[i]?.());
  for (const [name, value] of sent.headers) headers[name] = clean(value);
  const inUrl = new Set(url.searchParams.keys());
  for (const [name, value] of sent.query) if (!inUrl.has(name)) url.searchParams.append(name, value);
  if (sent.cookies.length > 0) headers.cookie = clean(sent.cookies.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; '));
}

/** A header value as a field can carry it: control characters (a generated or expression-filled value may hold some) become spaces. */
export const clean = (value: string): string => value.replace(/[\0-\x1f\x7f]/g, ' ');

/** A callback's parameters as they travel: header fields, query pairs, cookie pairs. */
export interface Serialised {
  headers: Array<[string, string]>;
  query: Array<[string, string]>;
  cookies: Array<[string, string]>;
}

/**
 * Writes each parameter's value as OpenAPI's style rules say (§ Style Values): headers `simple`,
 * query and cookie `form` by default, `spaceDelimited`, `pipeDelimited` and `deepObject` for
 * query, JSON text for a parameter given by a JSON `content`.
 */
export function serialise(parameters: readonly CallbackParameter[], valueOf: (index: number) => unknown): Serialised {
  const out: Serialised = { headers: [], query: [], cookies: [] };
  parameters.forEach((p, i) => {
    const value = valueOf(i);
    if (p.in === 'header') out.headers.push([p.name.toLowerCase(), p.style === 'json' ? JSON.stringify(value) : simple(value, p.explode)]);
    else (p.in === 'query' ? out.query : out.cookies).push(...pairs(p, value));
  });
  return out;
}

/** `simple`: array items and object members separated by commas (`k=v` members when exploded). */
function simple(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(text).join(',');
  if (isObject(value))
    return Object.entries(value)
      .map(([key, item]) => (explode ? `${key}=${text(item)}` : `${key},${text(item)}`))
      .join(',');
  return text(value);
}

/** `form` and the query styles, as name/value pairs. */
function pairs(p: CallbackParameter, value: unknown): Array<[string, string]> {
  if (p.style === 'json') return [[p.name, JSON.stringify(value)]];
  if (Array.isArray(value)) {
    const separator = p.style === 'spaceDelimited' ? ' ' : p.style === 'pipeDelimited' ? '|' : ',';
    return p.explode && p.style === 'form' ? value.map((item) => [p.name, text(item)]) : [[p.name, value.map(text).join(separator)]];
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (p.style === 'deepObject') return entries.map(([key, item]) => [`${p.name}[${key}]`, text(item)]);
    return p.explode ? entries.map(([key, item]) => [key, text(item)]) : [[p.name, entries.map(([key, item]) => `${key},${text(item)}`).join(',')]];
  }
  return [[p.name, text(value)]];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
