// Test servers that count what `mock bench*` sends them.
import http from 'node:http';
import net from 'node:net';

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));

/**
 * node:http server recording every request: method, path, headers, body, arrival time (ms since
 * the first request). `status(req)` picks the status (200), `delayMs` delays each answer, `close`
 * answers with Connection: close (one request per connection).
 */
export async function countingServer(t, { status = () => 200, delayMs = 0, close = false } = {}) {
  const seen = { total: 0, requests: [], byRoute: {}, first: 0, connections: 0 };
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      if (seen.total === 0) seen.first = now;
      seen.total++;
      const path = req.url.split('?')[0];
      const route = `${req.method} ${path}`;
      seen.byRoute[route] = (seen.byRoute[route] ?? 0) + 1;
      seen.requests.push({ at: now - seen.first, method: req.method, url: req.url, path, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const answer = () => {
        res.statusCode = status(req);
        res.setHeader('content-type', 'application/json');
        if (close) res.setHeader('connection', 'close');
        res.end('{"ok":true}');
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s) => {
    seen.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const url = await listen(server);
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url, seen };
}

/** Requests read off a raw socket: head, then a Content-Length or chunked body (chunk sizes kept). */
function requestReader(onRequest) {
  let buffer = Buffer.alloc(0);
  let request = null;
  return (data) => {
    buffer = Buffer.concat([buffer, data]);
    for (;;) {
      if (request === null) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [line, ...fields] = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers = {};
        for (const field of fields) {
          const colon = field.indexOf(':');
          headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
        }
        const [method, url] = line.split(' ');
        buffer = buffer.subarray(end + 4);
        request = { method, url, headers, chunked: /chunked/i.test(headers['transfer-encoding'] ?? ''), chunkSizes: [], parts: [], length: Number(headers['content-length'] ?? 0) };
      }
      if (request.chunked) {
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const size = parseInt(buffer.subarray(0, nl).toString('latin1'), 16);
        if (size === 0) {
          if (buffer.length < nl + 4) return;
          buffer = buffer.subarray(nl + 4); // 0\r\n\r\n (no trailers sent)
        } else {
          if (buffer.length < nl + 2 + size + 2) return;
          request.chunkSizes.push(size);
          request.parts.push(buffer.subarray(nl + 2, nl + 2 + size));
          buffer = buffer.subarray(nl + 2 + size + 2);
          continue;
        }
      } else {
        if (buffer.length < request.length) return;
        request.parts.push(buffer.subarray(0, request.length));
        buffer = buffer.subarray(request.length);
      }
      const done = request;
      request = null;
      done.body = Buffer.concat(done.parts);
      delete done.parts;
      onRequest(done);
    }
  };
}

/** Raw TCP server that parses chunked request bodies frame by frame and answers 200 to each. */
export async function chunkedServer(t) {
  const seen = { requests: [], sockets: 0 };
  const sockets = new Set();
  const server = net.createServer((socket) => {
    seen.sockets++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.on(
      'data',
      requestReader((request) => {
        seen.requests.push(request);
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok');
      }),
    );
  });
  const url = await listen(server);
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url, seen };
}

/**
 * Raw TCP server for pipelining: it holds the requests of a socket until `hold` of them arrived
 * (or 20 ms passed), then answers them all in one write, alternating 200 with a Content-Length
 * body and 404 with a chunked body. Records, per socket, requests and the largest batch held.
 */
export async function pipelineServer(t, { hold }) {
  const seen = { sockets: [], sent: { 200: 0, 404: 0 }, maxBatch: 0, requests: [] };
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const stats = { requests: 0 };
    seen.sockets.push(stats);
    let queue = [];
    let timer = null;
    const flush = () => {
      clearTimeout(timer);
      timer = null;
      if (queue.length === 0 || socket.destroyed) return;
      seen.maxBatch = Math.max(seen.maxBatch, queue.length);
      let out = '';
      for (const _ of queue) {
        const n = seen.sent[200] + seen.sent[404];
        if (n % 2 === 0) {
          seen.sent[200]++;
          out += 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello';
        } else {
          seen.sent[404]++;
          out += 'HTTP/1.1 404 Not Found\r\ntransfer-encoding: chunked\r\n\r\n3\r\nnot\r\n6\r\n found\r\n0\r\n\r\n';
        }
      }
      queue = [];
      socket.write(out);
    };
    socket.on(
      'data',
      requestReader((request) => {
        stats.requests++;
        if (seen.requests.length < 50) seen.requests.push(request);
        queue.push(request);
        if (queue.length >= hold) flush();
        else timer ??= setTimeout(flush, 20);
      }),
    );
  });
  const url = await listen(server);
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url, seen };
}
