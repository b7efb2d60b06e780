import { sourceOfCode } from '../../../common/answer-source.js';
import { PROBLEMS, type ProblemCode, type ProblemParams } from '../../../common/errors.js';
import type { Answer } from './answer.js';
import type { Exchange } from './exchange.js';

export const PROBLEM_TYPE = 'application/problem+json';

/** The detail header says what was refused; a few hundred characters do (validation details quote the request). */
const MAX_DETAIL = 512;

export interface ProblemOptions {
  /** Where the catalogue's status is a default: validation.status_code, an injected fault's. */
  status?: number;
  headers?: Array<[string, string]>;
  /** More members of the body, such as the validation errors. */
  extra?: Record<string, unknown>;
  /** The detail is also the answer's `error` (a failure's message: GraphQL's and gRPC's answers carry it), not only its logged reason. */
  logged?: boolean;
}

/**
 * A request refused (validation, security, 404, 405, 406, 415): its catalogue code and detail, and
 * mock's own answer for it, which refusal.ts answers in the description's words when it can.
 */
export interface Refusal {
  code: ProblemCode;
  detail: string;
  answer: Answer;
}

/** mock's own answer to a refusal (its problem body), marked with its code and detail; `applied`: Prefer asked for it. */
export function ownAnswer(refusal: Refusal, applied = false): Answer {
  const own = refusal.answer;
  const headers = [...own.headers, ...refusalMarks(refusal)];
  if (applied) headers.push(['preference-applied', 'error-body=problem']);
  return { ...own, headers };
}

/** The headers every refusal carries, whoever words its body: its code and (cut to a header's size) its detail. */
export function refusalMarks(refusal: Refusal): Array<[string, string]> {
  return [
    ['x-mock-error-code', refusal.code],
    ['x-mock-error-detail', cut(refusal.detail)],
  ];
}

function cut(detail: string): string {
  if (detail.length <= MAX_DETAIL) return detail;
  let end = MAX_DETAIL - 3;
  // never half a surrogate pair
  const last = detail.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${detail.slice(0, end)}...`;
}

/** A refusal whose own answer is the catalogue's problem body. */
export function refusal<C extends ProblemCode>(code: C, params: ProblemParams<C>, options: ProblemOptions = {}): Refusal {
  const detail = detailOf(code, params);
  return { code, detail, answer: problemAnswer(code, detail, options) };
}

/**
 * A 401 of the mocked API's security (catalogue MOCK_ERR_UNAUTHORIZED) in the spec's shape,
 * `{"error": "Unauthorized", "message": …}` as application/json, with one challenge per scheme.
 */
export function unauthorized(params: ProblemParams<'MOCK_ERR_UNAUTHORIZED'>, challenges: string[]): Refusal {
  const entry = PROBLEMS.MOCK_ERR_UNAUTHORIZED;
  const message = entry.detail(params);
  const answer: Answer = {
    status: entry.status,
    headers: [['content-type', 'application/json'], ...challenges.map((c): [string, string] => ['www-authenticate', c])],
    body: JSON.stringify({ error: entry.title, message, code: 'MOCK_ERR_UNAUTHORIZED' }),
    code: 'MOCK_ERR_UNAUTHORIZED',
    error: message,
    source: 'refusal',
  };
  return { code: 'MOCK_ERR_UNAUTHORIZED', detail: message, answer };
}

/** A middleware plugin's refusal (catalogue MOCK_ERR_PLUGIN_UNAUTHORIZED), shaped like the security schemes' 401: `{"error": "Unauthorized", "message": …}`. */
export function pluginUnauthorized(params: ProblemParams<'MOCK_ERR_PLUGIN_UNAUTHORIZED'>): Answer {
  const entry = PROBLEMS.MOCK_ERR_PLUGIN_UNAUTHORIZED;
  const message = entry.detail(params);
  return {
    status: entry.status,
    headers: [
      ['content-type', 'application/json'],
      ['x-mock-error-code', 'MOCK_ERR_PLUGIN_UNAUTHORIZED'],
    ],
    body: JSON.stringify({ error: entry.title, message, code: 'MOCK_ERR_PLUGIN_UNAUTHORIZED' }),
    code: 'MOCK_ERR_PLUGIN_UNAUTHORIZED',
    detail: message,
    source: 'refusal',
  };
}

/** 403 for a token without the scopes an operation requires, shaped like the 401, with the insufficient_scope challenge. */
export function insufficientScope(params: ProblemParams<'MOCK_ERR_INSUFFICIENT_SCOPE'>, challenge: string): Refusal {
  const entry = PROBLEMS.MOCK_ERR_INSUFFICIENT_SCOPE;
  const message = entry.detail(params);
  const answer: Answer = {
    status: entry.status,
    headers: [['content-type', 'application/json'], ['www-authenticate', challenge]],
    body: JSON.stringify({ error: entry.title, message, code: 'MOCK_ERR_INSUFFICIENT_SCOPE' }),
    code: 'MOCK_ERR_INSUFFICIENT_SCOPE',
    error: message,
    source: 'refusal',
  };
  return { code: 'MOCK_ERR_INSUFFICIENT_SCOPE', detail: message, answer };
}

/** 403 for a client certificate a mutualTLS scheme does not trust, shaped like the 401 (TLS has no WWW-Authenticate challenge). */
export function clientCertificateRefused(params: ProblemParams<'MOCK_ERR_CLIENT_CERTIFICATE_REFUSED'>): Refusal {
  const entry = PROBLEMS.MOCK_ERR_CLIENT_CERTIFICATE_REFUSED;
  const message = entry.detail(params);
  const answer: Answer = {
    status: entry.status,
    headers: [['content-type', 'application/json']],
    body: JSON.stringify({ error: entry.title, message, code: 'MOCK_ERR_CLIENT_CERTIFICATE_REFUSED' }),
    code: 'MOCK_ERR_CLIENT_CERTIFICATE_REFUSED',
    error: message,
    source: 'refusal',
  };
  return { code: 'MOCK_ERR_CLIENT_CERTIFICATE_REFUSED', detail: message, answer };
}

type OAuthCode = 'MOCK_ERR_OAUTH_INVALID_REQUEST' | 'MOCK_ERR_OAUTH_INVALID_CLIENT' | 'MOCK_ERR_OAUTH_UNSUPPORTED_GRANT_TYPE' | 'MOCK_ERR_OAUTH_INVALID_SCOPE';

/** An error of the mock OAuth 2.0 token endpoint in RFC 6749's shape (section 5.2); invalid_client challenges Basic. */
export function oauthError<C extends OAuthCode>(code: C, params: ProblemParams<C>): Answer {
  const entry = PROBLEMS[code];
  const description = (entry.detail as (p: ProblemParams<C>) => string)(params);
  const headers: Array<[string, string]> = [['content-type', 'application/json'], ['cache-control', 'no-store']];
  if (entry.status === 401) headers.push(['www-authenticate', 'Basic realm="token endpoint"']);
  return { status: entry.status, headers, body: JSON.stringify({ error: entry.title, error_description: description, code }), code, error: description, source: 'refusal' };
}

/** A problem answer of the catalogue (RFC 9457); the body carries its code. */
export function problem<C extends ProblemCode>(code: C, params: ProblemParams<C>, options: ProblemOptions = {}): Answer {
  return problemAnswer(code, detailOf(code, params), options);
}

function problemAnswer(code: ProblemCode, detail: string, options: ProblemOptions): Answer {
  const entry = PROBLEMS[code];
  const status = options.status ?? entry.status;
  return {
    status,
    headers: [['content-type', PROBLEM_TYPE], ...(options.headers ?? [])],
    body: JSON.stringify({ type: 'about:blank', title: entry.title, status, detail, code, ...options.extra }),
    code,
    detail,
    ...(options.logged === true ? { error: detail } : {}),
    source: sourceOfCode(code),
  };
}

const detailOf = <C extends ProblemCode>(code: C, params: ProblemParams<C>): string => (PROBLEMS[code].detail as (p: ProblemParams<C>) => string)(params);

/** 429 of the rate limiter in the spec's shape: the text `Rate limit exceeded`; the code goes in a header. */
export function rateLimited(headers: Array<[string, string]>): Answer {
  const entry = PROBLEMS.MOCK_ERR_RATE_LIMITED;
  const text = entry.detail({});
  return {
    status: entry.status,
    headers: [['content-type', 'text/plain; charset=utf-8'], ['x-mock-error-code', 'MOCK_ERR_RATE_LIMITED'], ...headers],
    body: text,
    code: 'MOCK_ERR_RATE_LIMITED',
    error: text,
    source: 'refusal',
  };
}

/** 400 for a request whose body nests deeper than a recursive walk over it can go (a template echoing it). */
export const requestTooDeep = (ex: Exchange): Answer => problem('MOCK_ERR_REQUEST_TOO_DEEP', { method: ex.method, path: ex.path }, { logged: true });
