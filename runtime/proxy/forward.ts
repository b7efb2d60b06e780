import type { MockRequest, MockResponse } from '../engine/index.js';
import { problem } from '../engine/index.js';

/** A proxied answer: binary bodies travel as bytes in `raw` (body is then ''). */
export type ProxiedResponse = MockResponse & { raw?: Uint8Array; error?: string };

/** Headers that belong to one connection, not to the message (RFC 9110 7.6.1), plus what fetch recomputes. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length']);

const TEXTUAL = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded|yaml|x-yaml|graphql))/i;

/**
 * Forwards a request to `upstream` (its path prefixes the request's) and returns the answer.
 * Failures become problem answers: 504 on timeout, 502 when the upstream cannot be reached.
 */
export async function forward(req: MockRequest, upstream: string, timeoutSeconds: number): Promise<ProxiedResponse> {
  const base = new URL(upstream);
  const target = new URL(base.href);
  target.pathname = base.pathname.replace(/\/$/, '') + req.url;
  target.search = req.query === '' ? '' : `?${req.query}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers.set(name, value);
  const hasBody = req.body !== undefined && req.body.length > 0 && req.method !== 'GET' && req.method !== 'HEAD';
  let answer: Response;
  try {
    answer = await fetch(target, {
      method: req.method,
      headers,
      body: hasBody ? new Uint8Array(req.body as Buffer) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutSeconds * 1000),
    });
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
    const reason = timedOut ? `no answer within ${timeoutSeconds}s` : describe(e);
    const message = `proxy to ${target.origin} failed: ${reason} (check proxy.upstream_url, or raise proxy.timeout_seconds)`;
    return { ...problem(timedOut ? 504 : 502, timedOut ? 'Gateway Timeout' : 'Bad Gateway', message), error: message };
  }
  const out: Array<[string, string]> = [];
  // fetch has already decoded compressed bodies
  answer.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out.push([name, value]);
  });
  const bytes = new Uint8Array(await answer.arrayBuffer());
  const type = answer.headers.get('content-type') ?? '';
  if (bytes.length === 0 || TEXTUAL.test(type)) return { status: answer.status, headers: out, body: Buffer.from(bytes).toString('utf8') };
  return { status: answer.status, headers: out, body: '', raw: bytes };
}

function describe(e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (cause instanceof Error ? cause.message : String(cause));
}
