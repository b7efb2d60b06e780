import http from 'node:http';
import https from 'node:https';
import { problem } from '../exchange/index.js';
import type { Answer, Exchange } from '../exchange/index.js';
import { isAdminCredential } from './admin-credentials.js';
import { upstreamTarget } from './upstream-target.js';

/**
 * Headers of one connection, not of the message (RFC 9110 7.6.1), plus `accept-encoding`: the
 * upstream answers uncompressed so that override rules can read and patch its JSON.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'accept-encoding']);

/** The server writes its own: a second Date would be a list where the field allows one value. */
const SERVER_WRITTEN = new Set(['date', 'content-length']);

const TEXTUAL = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded|yaml|x-yaml|graphql))/i;

/**
 * Forwards a request to `upstream` (its path prefixes the request's) and returns the answer.
 * node:http rather than fetch: fetch refuses "bad ports" (6000, 10080 …) that a local upstream
 * may well use. Failures become problem answers: 504 on timeout, 502 when the upstream cannot be
 * reached, 400 for a path with dot segments (upstream-target.ts), 502
 * for an answer larger than `maxBodyBytes` (http.max_body_bytes). Hop-by-hop headers and the
 * mock's own admin credentials (admin-credentials.ts) are not forwarded. `agent`: how https://
 * upstreams are checked (proxy.ca, proxy.insecure); a certificate refused is a 502 naming why.
 */
export function forward(ex: Exchange, upstream: string, timeoutSeconds: number, maxBodyBytes: number, agent?: https.Agent): Promise<Answer> {
  const target = upstreamTarget(upstream, ex.path, ex.rawQuery);
  if (target === undefined) return Promise.resolve(problem('MOCK_ERR_PROXY_DOT_SEGMENT', { path: ex.path }, { logged: true }));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ex.headers)) if (!HOP_BY_HOP.has(name) && !isAdminCredential(name, value)) headers[name] = value;
  const body = ex.body !== undefined && ex.body.length > 0 ? ex.body : undefined;
  if (body !== undefined) headers['content-length'] = String(body.length);
  const secure = target.protocol === 'https:';
  const client = secure ? https : http;
  return new Promise((resolve) => {
    const unreachable = (reason: string): void => resolve(problem('MOCK_ERR_UPSTREAM_UNREACHABLE', { origin: target.origin, reason }, { logged: true }));
    const request = client.request(target, { method: ex.method, headers, timeout: timeoutSeconds * 1000, ...(secure && agent !== undefined ? { agent } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBodyBytes) chunks.push(chunk);
        else {
          // the mock holds what it relays: an endless or huge answer must not fill its memory
          request.destroy();
          resolve(problem('MOCK_ERR_UPSTREAM_TOO_LARGE', { origin: target.origin, limit: maxBodyBytes }, { logged: true }));
        }
      });
      response.on('error', (e) => unreachable(e.message));
      response.on('end', () => {
        const out: Array<[string, string]> = [];
        for (const [name, value] of Object.entries(response.headers)) {
          if (value === undefined || HOP_BY_HOP.has(name) || SERVER_WRITTEN.has(name)) continue;
          for (const one of Array.isArray(value) ? value : [value]) out.push([name, asSent(one)]);
        }
        const bytes = Buffer.concat(chunks);
        const status = response.statusCode ?? 502;
        const type = response.headers['content-type'] ?? '';
        const encoded = response.headers['content-encoding'] !== undefined && response.headers['content-encoding'] !== 'identity';
        // text stays text, so override rules can patch it; anything else travels as the bytes it was
        resolve({ status, headers: out, body: bytes.length === 0 || (!encoded && TEXTUAL.test(type)) ? bytes.toString('utf8') : new Uint8Array(bytes), source: 'proxy' });
      });
    });
    request.on('timeout', () => {
      request.destroy();
      resolve(problem('MOCK_ERR_UPSTREAM_TIMEOUT', { origin: target.origin, seconds: timeoutSeconds }, { logged: true }));
    });
    request.on('error', (e: NodeJS.ErrnoException) => unreachable(e.code ?? e.message));
    request.end(body);
  });
}

/**
 * node:http reads header bytes as Latin-1; the server's writers send a value's characters as UTF-8.
 * Bytes beyond ASCII that are UTF-8 (what servers send today) are read back as such, so they reach
 * the client as the upstream sent them.
 */
function asSent(value: string): string {
  if (!/[\x80-\xff]/.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : value;
}
