import type { Capture } from '../../../runtime/index.js';

interface NameValue {
  name: string;
  value: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const pairs = (v: unknown): NameValue[] => (Array.isArray(v) ? v.filter((p): p is NameValue => isRecord(p) && typeof p.name === 'string' && typeof p.value === 'string') : []);

function headerRecord(list: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const { name, value } of pairs(list)) {
    const key = name.toLowerCase();
    // HTTP/2 pseudo-headers (:authority) are not headers of the description
    if (key.startsWith(':')) continue;
    const seen = out[key];
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** A HAR body: text as is, base64 decoded (binary bodies go through as their text, which validation reports). */
function bodyOf(text: unknown, encoding: unknown): string | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  return encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
}

/**
 * A HAR 1.2 entry as a capture (`har#<index>`); a string saying what is wrong when it is not an
 * entry; `skip` for a request that was never HTTP (a browser's data:, blob: and extension URLs).
 */
export function captureOfHarEntry(entry: unknown, index: number): { capture: Capture } | { problem: string } | { skip: string } {
  if (!isRecord(entry) || !isRecord(entry.request)) return { problem: `entry ${index} has no request` };
  const { request, response } = entry;
  if (typeof request.method !== 'string' || typeof request.url !== 'string') return { problem: `entry ${index}: request.method and request.url must be strings` };
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { problem: `entry ${index}: request.url ${JSON.stringify(request.url.slice(0, 200))} is not an absolute URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { skip: url.protocol };
  const postData = isRecord(request.postData) ? request.postData : undefined;
  const headers = headerRecord(request.headers);
  if (postData !== undefined && typeof postData.mimeType === 'string' && postData.mimeType !== '' && headers['content-type'] === undefined) headers['content-type'] = postData.mimeType;
  const capture: Capture = { id: `har#${index}`, method: request.method.toUpperCase(), path: `${url.pathname}${url.search}`, headers, query_params: {} };
  const body = bodyOf(postData?.text, postData?.encoding);
  if (body !== undefined) capture.body = body;
  // status 0: the browser got no answer (blocked, aborted)
  if (isRecord(response) && Number.isInteger(response.status) && (response.status as number) >= 100) {
    const content = isRecord(response.content) ? response.content : {};
    const responseHeaders = headerRecord(response.headers);
    if (typeof content.mimeType === 'string' && content.mimeType !== '' && responseHeaders['content-type'] === undefined) responseHeaders['content-type'] = content.mimeType;
    capture.response = { status: response.status as number, headers: responseHeaders };
    const text = bodyOf(content.text, content.encoding);
    if (text !== undefined) capture.response.body = text;
  }
  return { capture };
}
