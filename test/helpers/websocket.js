// A WebSocket client for tests, on the `ws` package: messages queue up and are taken in order
// with next(), the close is a promise, and a raw client that never answers pings plays a dead peer.
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

/** Opens `url` (options: protocols, headers, protocolVersion); rejects with the HTTP status when the upgrade is refused. */
export function connect(url, options = {}) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options.protocols, { perMessageDeflate: false, headers: options.headers, ...(options.protocolVersion === undefined ? {} : { protocolVersion: options.protocolVersion }) });
    const queue = [];
    const waiters = [];
    const client = {
      ws,
      openedAt: 0,
      /** Messages as {text} or {binary: Buffer}, with `at`: ms since the connection opened. */
      next(ms = 5000) {
        if (queue.length > 0) return Promise.resolve(queue.shift());
        return new Promise((res, rej) => {
          const waiter = (m) => {
            clearTimeout(timer);
            res(m);
          };
          const timer = setTimeout(() => {
            waiters.splice(waiters.indexOf(waiter), 1);
            rej(new Error(`no message within ${ms} ms`));
          }, ms);
          waiters.push(waiter);
        });
      },
      send: (data) => ws.send(data),
      close: (code = 1000, reason = '') => ws.close(code, reason),
      closed: new Promise((res) => ws.on('close', (code, reason) => res({ code, reason: reason.toString() }))),
    };
    ws.on('message', (data, isBinary) => {
      const message = { at: performance.now() - client.openedAt, ...(isBinary ? { binary: Buffer.from(data) } : { text: data.toString() }) };
      const waiter = waiters.shift();
      if (waiter) waiter(message);
      else queue.push(message);
    });
    ws.on('open', () => {
      client.openedAt = performance.now();
      resolve(client);
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode, headers: res.headers, body })));
    });
    ws.on('error', (e) => reject(e));
  });
}

/** A masked client text frame (RFC 6455 5.2), for raw sockets. */
export function clientFrame(text) {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const length = payload.length;
  const head = length < 126 ? Buffer.from([0x81, 0x80 | length]) : Buffer.from([0x81, 0x80 | 126, length >> 8, length & 255]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]));
  return Buffer.concat([head, mask, masked]);
}

/**
 * Upgrades with a bare socket; resolves with the socket once the 101 arrives, and `ended` when the
 * server drops it. `read: false` reads nothing more (a client that never takes what it is sent);
 * otherwise frames are read and ignored, so a ping gets no pong, as from a peer that is gone.
 */
export function rawClient(url, { read = true } = {}) {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    const ended = new Promise((res) => socket.on('close', res));
    let head = '';
    const onData = (d) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (!head.startsWith('HTTP/1.1 101')) reject(new Error(`no upgrade: ${head.split('\r\n')[0]}`));
      if (read) socket.on('data', () => undefined);
      else socket.pause();
      resolve({ socket, ended });
    };
    socket.on('data', onData);
    socket.on('error', () => undefined);
  });
}
