import type { Exchange } from '../../chain/exchange/index.js';
import type { TemplateContext } from '../../template/index.js';

/** What templates read of a request: path parameters, the query (one value as itself, several as a list), headers, the JSON body. */
export function requestContext(ex: Exchange): TemplateContext {
  return { path: ex.params, query: queryObject(ex.query), headers: ex.headers, body: ex.json };
}

export function queryObject(query: ReadonlyMap<string, string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of query) out[k] = v.length === 1 ? v[0] : v;
  return out;
}
