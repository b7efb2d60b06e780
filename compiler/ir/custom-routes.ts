import type { IrCustomRoute } from './types.js';
import { MockError } from '../../common/errors.js';
import { fieldProblem } from '../../common/http-fields.js';
import { compileRouteCondition } from '../../common/patterns/index.js';

const METHOD = /^(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE|\*)$/;

/** Validates `http.routes` entries of mock.yaml and lowers them; the first match wins, so order is priority. */
export function lowerCustomRoutes(raw: unknown[]): IrCustomRoute[] {
  return raw.map((entry, index) => {
    const where = `mock.yaml: http.routes[${index}]`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) fail(`${where}: expected an object with "path"`);
    const route = entry as Record<string, unknown>;
    if (typeof route.path !== 'string' || !route.path.startsWith('/')) fail(`${where}.path: expected a path starting with "/", got ${JSON.stringify(route.path)}`);
    const method = route.method === undefined ? '*' : String(route.method).toUpperCase();
    if (!METHOD.test(method)) fail(`${where}.method: expected an HTTP method or "*", got ${JSON.stringify(route.method)}`);
    const match = objectAt(route.match, `${where}.match`);
    const response = objectAt(route.response, `${where}.response`);
    const status = response.status ?? 200;
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
      fail(`${where}.response.status: expected an HTTP status between 100 and 599, got ${JSON.stringify(status)}`);
    }
    return {
      index,
      method,
      path: route.path as string,
      match: {
        query: stringMap(match.query, `${where}.match.query`),
        headers: lowerKeys(stringMap(match.headers, `${where}.match.headers`)),
        body: match.body,
      },
      response: {
        status: status as number,
        headers: responseHeaders(response.headers, `${where}.response.headers`),
        body: response.body,
        contentType: typeof response.content_type === 'string' ? response.content_type : undefined,
      },
    };
  });
}

function objectAt(value: unknown, where: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail(`${where}: expected an object, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

/** Condition values written `/regex/flags` are patterns: they must compile here, not when serving. */
function stringMap(value: unknown, where: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail(`${where}: expected a map of names to strings`);
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => {
      const text = String(v);
      try {
        compileRouteCondition(text);
      } catch (e) {
        fail(`${where}.${k}: the pattern ${text} ${(e as Error).message}`);
      }
      return [k, text];
    }),
  );
}

/** Header fields the route answers with: refused here rather than cleaned when served. */
function responseHeaders(value: unknown, where: string): Record<string, string> {
  const headers = lowerKeys(stringMap(value, where)) ?? {};
  for (const [name, text] of Object.entries(headers)) {
    const problem = fieldProblem(name, text);
    if (problem !== undefined) fail(`${where}: ${JSON.stringify(name)} ${problem}`);
  }
  return headers;
}

function lowerKeys(map: Record<string, string> | undefined): Record<string, string> | undefined {
  return map && Object.fromEntries(Object.entries(map).map(([k, v]) => [k.toLowerCase(), v]));
}

function fail(message: string): never {
  throw new MockError('MOCK_ERR_CONFIG_INVALID', message);
}
