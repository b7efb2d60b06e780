import type { Exchange } from '../../chain/exchange/index.js';

/** What a GraphQL-over-HTTP request asks for. */
export interface GraphqlParams {
  query: string;
  operationName: string | null;
  variables: Record<string, unknown> | undefined;
}

/** Why a request is not a GraphQL request: the answer's status and the reason. */
export interface ParamsRefusal {
  status: 400 | 405 | 415;
  reason: string;
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The request's parameters: a GET's query string (variables and extensions as JSON text) or a
 * POST's application/json body. Everything the GraphQL-over-HTTP specification makes a 4xx is
 * refused here, before any GraphQL work.
 */
export function paramsOf(ex: Exchange): GraphqlParams | ParamsRefusal {
  if (ex.method === 'GET') return fromQuery(ex);
  if (ex.method !== 'POST') return { status: 405, reason: `${ex.method} is not a GraphQL method: send GET or POST` };
  const type = ex.headers['content-type'];
  if (!isJsonType(type)) return { status: 415, reason: type ?? '' };
  if (ex.body === undefined || ex.body.byteLength === 0) return { status: 400, reason: 'the POST has no body: send {"query": "…"}' };
  let data: unknown;
  try {
    data = JSON.parse(ex.body.toString('utf8'));
  } catch {
    return { status: 400, reason: 'the body is not JSON' };
  }
  if (!isMap(data)) return { status: 400, reason: 'the body must be a JSON object such as {"query": "…"}' };
  return checked(data.query, data.operationName, data.variables, data.extensions);
}

/**
 * The parameters as sent, for a key of the answer: the GET's query string, or the body of a POST
 * paramsOf would read (application/json), byte for byte (latin1 keeps one character a byte); the
 * same text, the same parameters. Undefined for what paramsOf refuses by method or media type.
 */
export function sentParamsOf(ex: Exchange): string | undefined {
  if (ex.method === 'GET') return `G${ex.rawQuery}`;
  if (ex.method !== 'POST' || ex.body === undefined || !isJsonType(ex.headers['content-type'])) return undefined;
  return `P${ex.body.toString('latin1')}`;
}

function fromQuery(ex: Exchange): GraphqlParams | ParamsRefusal {
  const first = (name: string): string | undefined => ex.query.get(name)?.[0];
  let variables: unknown;
  let extensions: unknown;
  try {
    const rawVariables = first('variables');
    const rawExtensions = first('extensions');
    variables = rawVariables === undefined || rawVariables === '' ? undefined : JSON.parse(rawVariables);
    extensions = rawExtensions === undefined || rawExtensions === '' ? undefined : JSON.parse(rawExtensions);
  } catch {
    return { status: 400, reason: 'the variables or extensions parameter is not JSON' };
  }
  return checked(first('query'), first('operationName'), variables, extensions);
}

function checked(query: unknown, operationName: unknown, variables: unknown, extensions: unknown): GraphqlParams | ParamsRefusal {
  if (query === undefined || query === null) return { status: 400, reason: 'the query parameter is missing' };
  if (typeof query !== 'string') return { status: 400, reason: 'the query parameter must be a string' };
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return { status: 400, reason: 'operationName must be a string' };
  if (variables !== undefined && variables !== null && !isMap(variables)) return { status: 400, reason: 'variables must be a map' };
  if (extensions !== undefined && extensions !== null && !isMap(extensions)) return { status: 400, reason: 'extensions must be a map' };
  return { query, operationName: operationName ?? null, variables: variables ?? undefined };
}

/** application/json in UTF-8 (the charset may be absent: UTF-8 is assumed). */
function isJsonType(type: string | undefined): boolean {
  if (type === undefined) return false;
  const [mediaType = '', ...params] = type.toLowerCase().split(';');
  if (mediaType.trim() !== 'application/json') return false;
  return params.every((param) => {
    const [name = '', value = ''] = param.split('=').map((part) => part.trim());
    return name !== 'charset' || value === 'utf-8' || value === 'utf8';
  });
}
