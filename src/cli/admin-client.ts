import { Flags } from '@oclif/core';
import { MockError } from '../../common/errors.js';
import { redactUrlCredentials, redactUrlsInText } from '../../common/redacted.js';

export const adminFlags = {
  'admin-url': Flags.string({
    description: 'Base URL of the running admin API (mock serve --admin).',
    default: 'http://127.0.0.1:9080',
    env: 'MOCK_ADMIN_URL',
  }),
  token: Flags.string({ description: 'Bearer token for an admin API with admin.auth enabled (see POST /__mock/auth/login).', env: 'MOCK_ADMIN_TOKEN' }),
};

export interface AdminTarget {
  'admin-url': string;
  token?: string;
}

/**
 * One call of a running admin API; the envelope's data on success. Failures are one line naming
 * the URL and the fix: the server not running (or a URL with a password, which fetch refuses:
 * shown as [redacted]), the API disabled, the server's own error.
 */
export async function callAdmin(target: AdminTarget, method: string, endpoint: string, body?: unknown): Promise<{ data: unknown; raw: string }> {
  const base = target['admin-url'].replace(/\/+$/, '');
  const url = `${base}/__mock/api/${endpoint}`;
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  } catch (e) {
    // fetch's own message quotes the URL
    const reason = (e as { cause?: { code?: string } }).cause?.code ?? redactUrlsInText((e as Error).message);
    throw new MockError('MOCK_ERR_ADMIN_UNREACHABLE', `cannot reach the admin API at ${redactUrlCredentials(base)} (${reason}): start the server with mock serve --admin, or pass --admin-url`);
  }
  const raw = await response.text();
  let parsed: { success?: boolean; data?: unknown; error?: string } | undefined;
  try {
    parsed = JSON.parse(raw) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const why = parsed?.error ?? `HTTP ${response.status}`;
    throw new MockError('MOCK_ERR_ADMIN_REFUSED', `${method} ${url}: ${why}`);
  }
  return { data: parsed !== undefined && 'success' in parsed ? parsed.data : parsed, raw };
}
