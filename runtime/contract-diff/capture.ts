import { MockError } from '../../common/errors.js';
import type { ExchangeInit } from '../chain/exchange/index.js';

type HeaderValues = Record<string, string | string[]>;

/** An observed answer of a captured request. */
export interface CapturedResponse {
  status: number;
  headers: HeaderValues;
  /** A JSON value, or the body's text as received when a string. */
  body?: unknown;
}

/** A captured request (SPEC "Contract diff"), and its answer where known. */
export interface Capture {
  /** Given by the source (upload store, recorder row, HAR entry index, fixture file); absent when the source has none. */
  id?: string;
  method: string;
  /** Percent-encoded, may carry a `?query` which query_params add to. */
  path: string;
  headers: HeaderValues;
  query_params: Record<string, string | string[]>;
  /** A JSON value, or the body's text as sent when a string; absent: no body. */
  body?: unknown;
  response?: CapturedResponse;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(where: string, what: string): never {
  throw new MockError('MOCK_ERR_CAPTURE_INVALID', `${where}: ${what}`);
}

function headersOf(value: unknown, where: string): HeaderValues {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) bad(where, 'headers must be an object of name to string (or list of strings)');
  const out: HeaderValues = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v === 'string') out[name.toLowerCase()] = v;
    else if (Array.isArray(v) && v.every((one) => typeof one === 'string')) out[name.toLowerCase()] = v as string[];
    else if (typeof v === 'number' || typeof v === 'boolean') out[name.toLowerCase()] = String(v);
    else bad(where, `header '${name}' must be a string or a list of strings`);
  }
  return out;
}

function queryOf(value: unknown, where: string): Record<string, string | string[]> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) bad(where, 'query_params must be an object of name to string (or list of strings)');
  const out: Record<string, string | string[]> = {};
  for (const [name, v] of Object.entries(value)) {
    if (Array.isArray(v)) out[name] = v.map(String);
    else if (v !== null && typeof v !== 'object') out[name] = String(v);
    else bad(where, `query parameter '${name}' must be a string, a number, a boolean or a list of them`);
  }
  return out;
}

/**
 * A capture read from untrusted input (an upload, a file line): the SPEC shape checked, header
 * names lower-cased; a MockError (MOCK_ERR_CAPTURE_INVALID) naming `where` and the fix otherwise.
 */
export function readCapture(value: unknown, where: string): Capture {
  if (!isRecord(value)) bad(where, 'a capture must be an object {method, path, headers, query_params, body, response}');
  const { method, path, id } = value;
  if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method)) bad(where, 'method must be an HTTP method such as GET');
  if (typeof path !== 'string' || !path.startsWith('/')) bad(where, "path must be a string starting with '/'");
  const capture: Capture = { method: method.toUpperCase(), path, headers: headersOf(value.headers, where), query_params: queryOf(value.query_params, where) };
  if (typeof id === 'string' || typeof id === 'number') capture.id = String(id);
  if (value.body !== undefined && value.body !== null) capture.body = value.body;
  if (value.response !== undefined && value.response !== null) {
    const response = value.response;
    if (!isRecord(response) || !Number.isInteger(response.status) || (response.status as number) < 100 || (response.status as number) > 599)
      bad(where, 'response must be an object with an integer status from 100 to 599');
    capture.response = { status: response.status as number, headers: headersOf(response.headers, where) };
    if (response.body !== undefined && response.body !== null) capture.response.body = response.body;
  }
  return capture;
}

const firstOf = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** A body as bytes: a string as its text, any other JSON value serialised. */
export function bodyBytes(body: unknown): Buffer | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body);
  return Buffer.from(JSON.stringify(body), 'utf8');
}

/** The content type of a body: the one given, else JSON for a value that is not text. */
export function contentTypeOf(headers: HeaderValues, body: unknown): string | undefined {
  const given = firstOf(headers['content-type']);
  if (given !== undefined || body === undefined || typeof body === 'string' || body instanceof Uint8Array) return given;
  return 'application/json';
}

/** The request as the router and validators take it. */
export function exchangeInit(capture: Capture): ExchangeInit {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(capture.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const contentType = contentTypeOf(capture.headers, capture.body);
  if (contentType !== undefined) headers['content-type'] = contentType;
  const q = capture.path.indexOf('?');
  const path = q === -1 ? capture.path : capture.path.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : capture.path.slice(q + 1));
  for (const [name, value] of Object.entries(capture.query_params)) for (const one of Array.isArray(value) ? value : [value]) params.append(name, one);
  return { method: capture.method, path, rawQuery: params.toString(), headers, body: bodyBytes(capture.body) };
}

export const responseContentType = (response: CapturedResponse): string | undefined => contentTypeOf(response.headers, response.body);
