import type { TemplateContext } from '../../common/contract/index.js';

// Own properties only: `{{request.query.constructor}}` must not reach Object.prototype.
const own = Object.hasOwn;

export function pathParam(c: TemplateContext, name: string): string | undefined {
  return own(c.path, name) ? c.path[name] : undefined;
}

export function queryParam(c: TemplateContext, name: string): string | undefined {
  if (!own(c.query, name)) return undefined;
  const value = c.query[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `name` arrives lower-cased from the compiler, matching the context's header keys. */
export function headerValue(c: TemplateContext, name: string): string | undefined {
  return own(c.headers, name) ? c.headers[name] : undefined;
}

/** Walks object keys and array indices (`['items', '0', 'id']`); [] is the whole body. */
export function bodyField(c: TemplateContext, path: readonly string[]): unknown {
  let value = c.body;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !own(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
