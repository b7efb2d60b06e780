import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { HostAllowlist } from './host-allowlist.js';

/** One outgoing request, expressions already evaluated. */
export interface OutgoingRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}

/** What one attempt got: a status, or the error that stopped it (`refused`: the allowlist's, never retried). */
export type AttemptOutcome = { status: number; retryAfter?: string } | { error: string; refused: boolean };

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const REFUSED = 'ERR_CALLBACK_TARGET';

/** Why the URL may not be called, before any connection: its scheme, or a host not on the allowlist. */
export function refusalOf(url: URL, allowlist: HostAllowlist): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} is not http: or https:`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowlist.allowsHost(host)) return `${host} is not in callbacks.allowed_hosts (loopback only by default); add it there to let the mock call it`;
  return undefined;
}

/** dns.lookup for http.request that fails when the name resolves to an address the allowlist refuses. */
function guardedLookup(allowlist: HostAllowlist) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, []);
      const refused = addresses.find((entry) => !allowlist.allowsAddress(entry.address));
      if (refused !== undefined) {
        const failure: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${refused.address}, a loopback, link-local or private address not in callbacks.allowed_hosts`);
        failure.code = REFUSED;
        return callback(failure, []);
      }
      if ((options as { all?: boolean }).all === true) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * One attempt: an answer of any status is an outcome (its body read and dropped); redirects are
 * never followed, so an allowed host cannot send the mock on to another.
 */
export function attempt(request: OutgoingRequest, allowlist: HostAllowlist, timeoutMs: number): Promise<AttemptOutcome> {
  const refusal = refusalOf(request.url, allowlist);
  if (refusal !== undefined) return Promise.resolve({ error: refusal, refused: true });
  const send = request.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
  return new Promise((resolve) => {
    let req: ClientRequest;
    try {
      req = send(request.url, { method: request.method, headers, lookup: guardedLookup(allowlist), timeout: timeoutMs }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: header(res.headers, 'retry-after') }));
        res.on('error', (error) => resolve({ error: error.message, refused: false }));
      });
    } catch (e) {
      // what node:http will not write (a header value an expression filled with characters a field cannot carry): no attempt would do better
      resolve({ error: (e as Error).message, refused: true });
      return;
    }
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.message, refused: error.code === REFUSED }));
    req.end(request.body);
  });
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
