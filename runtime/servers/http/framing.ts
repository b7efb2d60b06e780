const DIGITS = /^\d+$/;

/**
 * Why the length of a request's body is not certain (RFC 9112 6.1, 6.3), or undefined. The parser
 * of uWebSockets.js takes the first Content-Length and reads chunked bodies whatever else
 * Transfer-Encoding says, so a second value would frame the next request: such requests are
 * refused with 400 and the connection is closed. `length` and `encoding` are the headers as read,
 * repeats joined by `, `.
 */
export function framingProblem(length: string | undefined, encoding: string | undefined): string | undefined {
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'chunked') {
    return `Transfer-Encoding: ${encoding} (send one Transfer-Encoding header with the single coding chunked)`;
  }
  if (length === undefined || DIGITS.test(length)) return undefined;
  const values = length.split(',').map((value) => value.trim());
  // a list of one value repeated is one length (RFC 9110 8.6)
  if (values.every((value) => DIGITS.test(value) && value === values[0])) return undefined;
  return `Content-Length: ${length} (send one Content-Length header with the body's length in bytes)`;
}
