import { Flags } from '@oclif/core';
import { MockError } from '../../common/errors.js';
import { MANAGEMENT_TOKEN_HEADER } from '../../common/admin-credentials.js';
import { redactUrlCredentials, redactUrlsInText } from '../../common/redacted.js';

export const adminFlags = {
  'admin-url': Flags.string({
    description: 'Base URL of the running admin API (mock serve --admin).',
    default: 'http://127.0.0.1:9080',
    env: 'MOCK_ADMIN_URL',
  }),
  token: Flags.string({ description: 'Bearer token for an admin API with admin.auth enabled (see POST /__mock/auth/login).', env: 'MOCK_ADMIN_TOKEN' }),
  'management-token': Flags.string({
    description: 'The hosted-mode token (admin.management_token of the server) that writes need, sent as X-Mock-Management-Token.',
    env: 'MOCK_MANAGEMENT_TOKEN',
  }),
};

export interface AdminTarget {
  'admin-url': string;
  token?: string;
  /** Sent on writes only: the server asks for it on nothing else. */
  'management-token'?: string;
}

/** An answer of the admin API: the status, the envelope's data, its error. */
export interface AdminAnswer {
  status: number;
  data: unknown;
  error?: string;
}

/**
 * The one client of a running admin API, for every command that talks to one (`mock chaos
 * profile …`, `mock tui`): `<admin-url>/__mock/api/<endpoint>`, the token as Bearer. A server that
 * cannot be reached is one line naming the URL and the fix (a URL with a password, which fetch
 * refuses, shown as [redacted]).
 */
export class AdminClient {
  readonly base: string;
  /** The base as messages show it: its password, if any, [redacted]. */
  readonly shown: string;

  constructor(
    readonly target: AdminTarget,
    private readonly timeoutMs = 10_000,
  ) {
    this.base = target['admin-url'].replace(/\/+$/, '');
    this.shown = redactUrlCredentials(this.base);
  }

  /** One call, its status kept (a caller may show a refusal and go on); throws MOCK_ERR_ADMIN_UNREACHABLE when nothing answers. */
  async request(method: string, endpoint: string, body?: unknown): Promise<AdminAnswer> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.target.token !== undefined) headers.authorization = `Bearer ${this.target.token}`;
    const management = this.target['management-token'];
    if (management !== undefined && method !== 'GET' && method !== 'HEAD') headers[MANAGEMENT_TOKEN_HEADER] = management;
    let response: Response;
    try {
      response = await fetch(`${this.base}/__mock/api/${endpoint}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (e) {
      // fetch's own message quotes the URL
      const err = e as { name?: string; cause?: { code?: string }; message: string };
      const reason = err.name === 'TimeoutError' ? `no answer within ${this.timeoutMs / 1000} s` : (err.cause?.code ?? redactUrlsInText(err.message));
      throw new MockError('MOCK_ERR_ADMIN_UNREACHABLE', `cannot reach the admin API at ${this.shown} (${reason}): start it with mock serve --admin, or pass --admin-url`);
    }
    const raw = await response.text();
    let parsed: { success?: boolean; data?: unknown; error?: unknown } | undefined;
    try {
      parsed = JSON.parse(raw) as typeof parsed;
    } catch {
      parsed = undefined;
    }
    const enveloped = parsed !== undefined && parsed !== null && typeof parsed === 'object' && 'success' in parsed;
    let error = response.ok ? undefined : typeof parsed?.error === 'string' ? parsed.error : `HTTP ${response.status}`;
    // a hosted server refused a write: say which flag carries the token it asks for
    if (response.status === 401 && error?.includes('X-Mock-Management-Token') === true) {
      error += management === undefined ? '; pass the server\'s admin.management_token as --management-token (or MOCK_MANAGEMENT_TOKEN)' : '; --management-token (or MOCK_MANAGEMENT_TOKEN) is not the server\'s admin.management_token';
    }
    return { status: response.status, data: enveloped ? parsed?.data : parsed, error };
  }

  /** The data of a successful call; a refusal is one line (`GET /__mock/unmatched: HTTP 404 …`) thrown as MOCK_ERR_ADMIN_REFUSED. */
  async call<T>(method: string, endpoint: string, body?: unknown): Promise<T> {
    const answer = await this.request(method, endpoint, body);
    if (answer.error !== undefined) throw new MockError('MOCK_ERR_ADMIN_REFUSED', `${method} /__mock/${endpoint.replace(/\?.*$/, '')}: ${answer.error}`);
    return answer.data as T;
  }

  get<T>(endpoint: string): Promise<T> {
    return this.call<T>('GET', endpoint);
  }
}
