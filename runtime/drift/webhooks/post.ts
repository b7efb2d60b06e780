import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup, isPrivateAddress } from './target.js';

/** What one attempt got: a status, or the error that stopped it. */
export type PostOutcome = { status: number; retryAfter?: string } | { error: string; refused: boolean };

/** One attempt to deliver: an answer of any status is an outcome, its body is read and dropped; redirects are not followed. */
export function postJson(
  url: URL,
  headers: Record<string, string>,
  body: string,
  { timeoutMs, allowPrivate, signal }: { timeoutMs: number; allowPrivate: boolean; signal: AbortSignal },
): Promise<PostOutcome> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // an address in the URL is connected to without a lookup
  if (!allowPrivate && isPrivateAddress(host)) {
    return Promise.resolve({ error: `${host} is a loopback, link-local or private address; set contract_diff.webhook_allow_private: true to send there`, refused: true });
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(allowPrivate),
        timeout: timeoutMs,
        signal,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: header(res.headers, 'retry-after') }));
        res.on('error', (error) => resolve({ error: error.message, refused: false }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.message, refused: error.code === 'ERR_WEBHOOK_TARGET' }));
    req.end(body);
  });
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
