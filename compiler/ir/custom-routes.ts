import type { IrCustomRoute } from './types.js';
import { MockError } from '../../common/errors.js';
import { fieldProblem } from '../../common/http-fields.js';
import { lowerRouteCallbacks } from './callbacks.js';
import { PatternError, compileCondition, compileJsonPathConditions, compileRouteCondition, type ConditionSpec } from '../../common/patterns/index.js';

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
        query: conditionMap(match.query, `${where}.match.query`),
        headers: lowerKeys(conditionMap(match.headers, `${where}.match.headers`)),
        body: match.body,
        ...(match.json_path === undefined ? {} : { json_path: jsonPathMap(match.json_path, `${where}.match.json_path`) }),
        // its conditions are compiled by the server's one matching module, which names a malformed one at start
        ...(match.client_certificate === undefined ? {} : { client_certificate: objectAt(match.client_certificate, `${where}.match.client_certificate`) }),
      },
      response: {
        status: status as number,
        headers: responseHeaders(response.headers, `${where}.response.headers`),
        body: response.body,
        contentType: typeof response.content_type === 'string' ? response.content_type : undefined,
      },
      ...callbacksOf(route.callbacks, `${where}.callbacks`),
    };
  });
}

/** Present only when the route declares some, so a route without is lowered as before. */
function callbacksOf(raw: unknown, where: string): { callbacks?: IrCustomRoute['callbacks'] } {
  const callbacks = lowerRouteCallbacks(raw, where);
  return callbacks.length === 0 ? {} : { callbacks };
}

function objectAt(value: unknown, where: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail(`${where}: expected an object, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

function stringMap(value: unknown, where: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail(`${where}: expected a map of names to strings`);
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, routeText(v, `${where}.${k}`)]));
}

/** A scalar as the text it reads as; values written `/regex/flags` are patterns: they must compile here, not when serving. */
function routeText(value: unknown, where: string): string {
  const text = String(value);
  try {
    compileRouteCondition(text);
  } catch (e) {
    fail(`${where}: the pattern ${text} ${(e as Error).message}`);
  }
  return text;
}

/**
 * Query and header conditions (docs/configuration.md, "Conditions"): a scalar is the text it reads as (an exact
 * value, or `/regex/flags`), an object one of {equals}, {matches}, {present}; compiled here, so a
 * bad one fails the build rather than the server.
 */
function conditionMap(value: unknown, where: string): Record<string, ConditionSpec> | undefined {
  if (value === undefined) return undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail(`${where}: expected a map of names to strings or conditions ({equals}, {matches}, {present})`);
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]): [string, ConditionSpec] => {
      if (v === null || typeof v !== 'object') return [k, routeText(v, `${where}.${k}`)];
      try {
        compileCondition(v, 'route');
      } catch (e) {
        if (e instanceof PatternError) fail(`${where}.${k}: ${e.message}`);
        throw e;
      }
      return [k, v as ConditionSpec];
    }),
  );
}

/** JSONPath conditions on the JSON body: every path compiled (and bounded) here. */
function jsonPathMap(value: unknown, where: string): Record<string, ConditionSpec> {
  try {
    compileJsonPathConditions(value, 'route', where);
  } catch (e) {
    if (e instanceof PatternError) fail(e.message);
    throw e;
  }
  return value as Record<string, ConditionSpec>;
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

function lowerKeys<T>(map: Record<string, T> | undefined): Record<string, T> | undefined {
  return map && Object.fromEntries(Object.entries(map).map(([k, v]) => [k.toLowerCase(), v]));
}

function fail(message: string): never {
  throw new MockError('MOCK_ERR_CONFIG_INVALID', message);
}
