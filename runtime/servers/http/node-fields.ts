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
  for (const [name, given] of fields) {
    if (!isFieldName(name)) continue;
    let value = hasControl(given) ? withoutControls(given) : given;
    if (BEYOND_ASCII.test(value)) {
      value = Buffer.from(value, 'utf8').toString('latin1');
      wide = true;
    }
    const current = headers[name];
    headers[name] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [String(current), value];
  }
  return { headers, wide };
}

const BEYOND_ASCII = /[^\x00-\x7f]/;
