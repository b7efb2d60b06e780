// Request shapes the parser of the pinned uWebSockets.js build never hands to the server: it waits
// for more bytes until its 10 s idle timeout (docs/backends.md). node:http answers each at once.
export const MALFORMED_REQUESTS = {
  'a request line without a version': 'GET /v1/pets\r\n\r\n',
  'obs-fold in a header': 'GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nX-A: b\r\n c\r\n\r\n',
  'CR inside a header value': 'GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nX-A: b\rc\r\n\r\n',
  'NUL inside a header value': 'GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nX-A: b\u0000c\r\n\r\n',
  'a space before the colon': 'POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n',
  'no header at all': 'GET /v1/pets HTTP/1.1\r\n\r\n',
};
