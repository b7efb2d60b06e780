// Helpers for tests of the admin API (docs/admin.md): envelope assertions, JSON requests, a raw
// HTTP/1.1 client for pipelined requests, and `mock admin` as a child process.
//
//   const data = await envelope(t, await fetch(`${server.adminUrl}/__mock/dashboard`));
//   const error = await failure(t, await post(`${adminUrl}/__mock/config/latency`, { config_type: 'x' }), 400);
//   const [first, second] = await pipelined(adminUrl, [rawRequest('POST', '/__mock/servers/restart', {}), ...]);
import http from 'node:http';
import net from 'node:net';
import { root, startCommand } from './cli.js';

/** An ISO 8601 UTC timestamp as the admin API writes them (`2024-01-01T00:00:00.000Z`). */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Asserts `value` is an ISO timestamp within `slackMs` of now (the server runs on this machine). */
export function isRecentIso(t, value, what = 'timestamp', slackMs = 120_000) {
  t.match(value, ISO, `${what} is an ISO 8601 UTC timestamp`);
  t.ok(Math.abs(Date.parse(value) - Date.now()) < slackMs, `${what} (${value}) is close to now`);
}

async function readEnvelope(t, res, status) {
  t.equal(res.status, status, `status ${status}`);
  t.match(res.headers.get('content-type'), /^application\/json/, 'JSON answer');
  t.equal(res.headers.get('access-control-allow-origin'), null, 'CORS: no grant without an Origin, never *');
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    t.fail(`answer is not JSON: ${text.slice(0, 200)}`);
    return {};
  }
  t.same(Object.keys(body).sort(), ['data', 'error', 'success', 'timestamp'], 'envelope fields {success, data, error, timestamp}');
  isRecentIso(t, body.timestamp, 'envelope timestamp');
  return body;
}

/** Asserts a successful envelope (`success: true`, `error: null`) with `status`; resolves with `data`. */
export async function envelope(t, res, status = 200) {
  const body = await readEnvelope(t, res, status);
  t.equal(body.success, true, 'success: true');
  t.equal(body.error, null, 'error: null');
  return body.data;
}

/** Asserts a failed envelope (`success: false`, `data: null`, an error string) with `status`; resolves with the error. */
export async function failure(t, res, status, pattern) {
  const body = await readEnvelope(t, res, status);
  t.equal(body.success, false, 'success: false');
  t.equal(body.data, null, 'data: null');
  t.type(body.error, 'string', 'error is a string');
  t.ok(body.error?.length > 0, 'error is not empty');
  if (pattern !== undefined) t.match(body.error, pattern, 'error message');
  return body.error;
}

/** fetch() with a JSON body (a string is sent as is, so malformed JSON can be sent too). */
export function post(url, body, { method = 'POST', headers = {} } = {}) {
  return fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** One HTTP/1.1 request as text, for pipelined(). `body` may be an object (sent as JSON) or a string. */
export function rawRequest(method, path, body) {
  const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const head = [`${method} ${path} HTTP/1.1`, 'Host: localhost'];
  if (body !== undefined) head.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(payload)}`);
  return `${head.join('\r\n')}\r\n\r\n${payload}`;
}

/**
 * Sends `requests` (from rawRequest) on ONE connection in a single write, so the server reads
 * them together, and resolves with the responses in order: `{status, headers, body, json}`.
 * Responses must carry Content-Length (every admin answer does).
 */
export function pipelined(baseUrl, requests, timeoutMs = 10_000) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    let buffer = Buffer.alloc(0);
    const responses = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`pipelined: ${responses.length} of ${requests.length} responses within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(requests.join('')));
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) break;
        const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers = {};
        for (const line of lines) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (buffer.length < end + 4 + length) break;
        const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
        buffer = buffer.subarray(end + 4 + length);
        let json;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        responses.push({ status: Number(statusLine.split(' ')[1]), headers, body, json });
      }
      if (responses.length === requests.length) {
        clearTimeout(timer);
        socket.end();
        resolve(responses);
      }
    });
  });
}

/** Polls `GET {adminUrl}/__mock/servers/restart/status` until no restart runs; resolves with the status data. */
export async function restartSettled(adminUrl, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await (await fetch(`${adminUrl}/__mock/servers/restart/status`)).json();
    if (!data.in_progress) return data;
    if (Date.now() > deadline) throw new Error(`restart still in progress after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts `mock admin <args>` (add `--port 0`) and resolves once it listens with
 * `{url, stdout, stderr, stop()}`; rejects with `{code, stdout, stderr}` when it exits first.
 */
export function startAdminCommand(args, { cwd = root, env = {}, timeoutMs = 60_000 } = {}) {
  return startCommand(['admin', '--host', '127.0.0.1', ...args], /admin on (http:\/\/\S+)/, { cwd, env, timeoutMs });
}

/** Reads an answer whole: status, text, the JSON when the text is JSON (else undefined), headers. */
export async function readAnswer(res) {
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, headers: res.headers };
}

/** One request with full control over the headers (fetch may not set Host), on a connection of its own. */
export function exactRequest(base, method, p, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    // a connection per request: the pooled agent may reuse a socket the server is closing
    const req = http.request(new URL(p, base), { method, agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `exactRequest` options for a JSON body. */
export const jsonBody = (body, headers = {}) => ({ headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
