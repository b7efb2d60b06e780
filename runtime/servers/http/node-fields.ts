import type http from 'node:http';
import { hasControl, isFieldName, withoutControls } from '../../../common/http-fields.js';

/**
 * Header fields as node:http takes them, cleaned as RFC 9110 requires (common/http-fields.ts):
 * fields with an invalid name left out, control characters cut from values. Characters beyond
 * ASCII go out as their UTF-8 bytes, as uWebSockets.js sends them (node:http would send Latin-1 and
 * throw on the rest). `wide` says some did: node:http then encodes a head sent together with a text
 * body as UTF-8, so such a body must be written as bytes.
 */
export function nodeHeaders(fields: ReadonlyArray<readonly [string, string]>): { headers: http.OutgoingHttpHeaders; wide: boolean } {
  const headers: http.OutgoingHttpHeaders = {};
  let wide = false;
  for (let i = 0; i < fields.length; i++) {
    const [name, given] = fields[i];
    if (!isFieldName(name)) continue;
    let value = given;
    // hot path: one pass finds a value of printable ASCII, which goes out as it is
    if (!isPlainAscii(value)) {
      if (hasControl(value)) value = withoutControls(value);
      if (BEYOND_ASCII.test(value)) {
        value = Buffer.from(value, 'utf8').toString('latin1');
        wide = true;
      }
    }
    const current = headers[name];
    headers[name] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [String(current), value];
  }
  return { headers, wide };
}

/** Only characters from space to `~`. */
function isPlainAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 32 || c > 126) return false;
  }
  return true;
}

const BEYOND_ASCII = /[^\x00-\x7f]/;
