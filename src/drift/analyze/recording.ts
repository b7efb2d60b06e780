import type { Capture, Recording } from '../../../runtime/index.js';

const text = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

/** A row of the recordings database as a capture (`recording#<id>`). */
export function captureOfRecording(r: Recording): Capture {
  const capture: Capture = { id: `recording#${r.id}`, method: r.method, path: r.query === '' ? r.path : `${r.path}?${r.query}`, headers: { ...r.request_headers }, query_params: {} };
  if (r.request_body.byteLength > 0) capture.body = text(r.request_body);
  capture.response = { status: r.status, headers: { ...r.response_headers } };
  if (r.response_body.byteLength > 0) capture.response.body = text(r.response_body);
  return capture;
}
