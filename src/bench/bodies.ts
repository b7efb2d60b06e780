// Request bodies of an exact byte size, for bench-chunked and bench-pipeline.
import { MockError } from '../../common/errors.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `length` ASCII letters and digits. */
export function filler(length: number): string {
  const whole = ALPHABET.repeat(Math.ceil(length / ALPHABET.length));
  return whole.slice(0, length);
}

/** JSON text with every non-ASCII character escaped, so bytes = characters. */
export function asciiJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `value` as JSON, padded with trailing spaces to exactly `size` bytes: JSON allows whitespace
 * after the value, so the document still parses to the same value (and still validates).
 */
export function padJson(value: unknown, size: number, flag: string): string {
  const text = asciiJson(value);
  if (text.length > size) {
    throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: ${size} bytes is smaller than the generated JSON body (${text.length} bytes); give at least ${text.length}`);
  }
  return text + ' '.repeat(size - text.length);
}

export const PIPELINE_CONTENT_TYPES = ['json', 'xml', 'urlencoded', 'multipart'] as const;
export type PipelineContentType = (typeof PIPELINE_CONTENT_TYPES)[number];

export const MULTIPART_BOUNDARY = 'mock-bench-boundary-5f1d7c';

/** A body of exactly `size` bytes of the kind, with its Content-Type. */
export function sizedBody(kind: PipelineContentType | 'json-object', size: number, flag: string): { contentType: string; body: string } {
  const wrap = (before: string, after: string, contentType: string) => {
    const room = size - before.length - after.length;
    if (room < 0) throw new MockError('MOCK_ERR_FLAG_INVALID', `${flag}: a ${kind} body needs at least ${before.length + after.length} bytes, got ${size}`);
    return { contentType, body: before + filler(room) + after };
  };
  switch (kind) {
    case 'json':
    case 'json-object':
      if (size < 11 && size >= 2) return { contentType: 'application/json', body: `{}${' '.repeat(size - 2)}` };
      return wrap('{"data":"', '"}', 'application/json');
    case 'xml':
      return wrap('<?xml version="1.0" encoding="UTF-8"?><data>', '</data>', 'application/xml');
    case 'urlencoded':
      return wrap('data=', '', 'application/x-www-form-urlencoded');
    case 'multipart':
      return wrap(
        `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="data"\r\n\r\n`,
        `\r\n--${MULTIPART_BOUNDARY}--\r\n`,
        `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`,
      );
  }
}
