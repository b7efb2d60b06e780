/**
 * The admin API client: `/__mock/<endpoint>` with the envelope `{success, data, error}` unwrapped,
 * the browser token on every write (X-Mock-Admin-Token, from the page's meta tag), and the login's
 * bearer token, refreshed once when it expires.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Session {
  access_token: string;
  refresh_token: string;
  user: { username: string; role: Role };
}

export type Role = 'viewer' | 'editor' | 'admin';

const SESSION_KEY = 'mock-dashboard-session';
const browserToken = document.querySelector<HTMLMetaElement>('meta[name="mock-admin-token"]')?.content ?? '';

let session: Session | null = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as Session | null;
// refresh tokens work once: concurrent 401s share one refresh, else the second would look like a theft
let refreshing: Promise<boolean> | undefined;
let onLost = (): void => undefined;

/** Called when the login ends without the user asking (its refresh refused): the page asks for a login again. */
export function whenSessionLost(listener: () => void): void {
  onLost = listener;
}

function setSession(next: Session | null): void {
  session = next;
  if (next === null) sessionStorage.removeItem(SESSION_KEY);
  else sessionStorage.setItem(SESSION_KEY, JSON.stringify(next));
}

export const apiUrl = (endpoint: string): string => `/__mock/${endpoint}`;

function headersFor(body: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  // GETs too: some start work (smoke/run), and the API asks the token of those as of writes
  headers['x-mock-admin-token'] = browserToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (session !== null) headers.authorization = `Bearer ${session.access_token}`;
  return headers;
}

async function refresh(): Promise<boolean> {
  const held = session;
  if (held === null) return false;
  refreshing ??= fetch(apiUrl('auth/refresh'), { method: 'POST', headers: headersFor({}), body: JSON.stringify({ refresh_token: held.refresh_token }) })
    .then(async (res) => {
      const answer = (await res.json()) as { success: boolean; data: Session };
      setSession(answer.success ? { ...answer.data, user: answer.data.user ?? held.user } : null);
      if (!answer.success) onLost();
      return answer.success;
    })
    .catch(() => false)
    .finally(() => (refreshing = undefined));
  return refreshing;
}

/** Sends one request; resolves with the response as received (after one refresh on a 401 when logged in). */
async function send(method: string, endpoint: string, body?: unknown): Promise<Response> {
  const go = (): Promise<Response> => fetch(apiUrl(endpoint), { method, headers: headersFor(body), body: body === undefined ? undefined : JSON.stringify(body) });
  const res = await go();
  if (res.status === 401 && session !== null && endpoint !== 'auth/refresh' && (await refresh())) return go();
  return res;
}

/** Calls an endpoint and resolves with `data`; an ApiError with the API's one-sentence error otherwise. */
export async function call<T>(method: string, endpoint: string, body?: unknown): Promise<T> {
  const res = await send(method, endpoint, body);
  const text = await res.text();
  let answer: { success?: boolean; data?: T; error?: string } | undefined;
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    throw new ApiError(res.status, `${method} /__mock/${endpoint}: ${res.status} ${text.slice(0, 200)}`);
  }
  if (answer?.success === false || !res.ok) throw new ApiError(res.status, answer?.error ?? `${method} /__mock/${endpoint}: ${res.status}`);
  // GET health answers the object itself, without the envelope
  return (answer !== undefined && 'success' in answer ? answer.data : answer) as T;
}

export const get = <T>(endpoint: string): Promise<T> => call<T>('GET', endpoint);

export async function login(username: string, password: string): Promise<Session> {
  const data = await call<Session>('POST', 'auth/login', { username, password });
  setSession(data);
  return data;
}

export async function logout(): Promise<void> {
  const held = session;
  setSession(null);
  if (held !== null) await fetch(apiUrl('auth/logout'), { method: 'POST', headers: { ...headersFor({}), authorization: `Bearer ${held.access_token}` }, body: JSON.stringify({ refresh_token: held.refresh_token }) }).catch(() => undefined);
}
