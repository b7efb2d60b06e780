import type { LoggedBody } from '../../common/request-log.js';
import type { LogEntry } from './types';

/** A kept body's HAR comment: what is missing from it. */
const bodyNote = (body: LoggedBody): string | undefined =>
  body.truncated === true ? `truncated: the first bytes of ${body.size} (logging.bodies.max_body_bytes)` : undefined;

/**
 * Log entries as a HAR 1.2 document (what browsers' network panels and `mock fixtures import`
 * read), with the bodies the log kept (logging.bodies; credentials redacted): postData.text and
 * content.text (base64 with `encoding` when binary). An entry whose bodies were not kept carries sizes only.
 */
export function toHar(entries: LogEntry[]): object {
  return {
    log: {
      version: '1.2',
      creator: { name: 'mock dashboard', version: '1' },
      entries: entries.map((e) => {
        const host = e.headers.host ?? 'localhost';
        const query = e.query !== undefined && e.query !== '' ? `?${e.query}` : '';
        const url = new URL(`http://${host}${e.path}${query}`);
        return {
          startedDateTime: e.timestamp,
          time: e.response_time_ms,
          request: {
            method: e.method,
            url: url.href,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: Object.entries(e.headers).map(([name, value]) => ({ name, value })),
            queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
            headersSize: -1,
            bodySize: e.request_body?.size ?? -1,
            ...(e.request_body === undefined ? {} : { postData: postData(e.request_body) }),
          },
          response: {
            status: e.status_code,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [],
            content: content(e),
            redirectURL: '',
            headersSize: -1,
            bodySize: e.response_size_bytes,
          },
          cache: {},
          timings: { send: 0, wait: e.response_time_ms, receive: 0 },
          ...(e.error_message === null ? {} : { comment: e.error_message }),
        };
      }),
    },
  };
}

function postData(body: LoggedBody): object {
  const note = bodyNote(body);
  return {
    mimeType: body.content_type ?? '',
    text: body.text,
    ...(body.encoding === undefined ? {} : { _encoding: body.encoding }),
    ...(note === undefined ? {} : { comment: note }),
  };
}

function content(e: LogEntry): object {
  const body = e.response_body;
  if (body === undefined) return { size: e.response_size_bytes, mimeType: '' };
  const note = bodyNote(body);
  return {
    size: body.size,
    mimeType: body.content_type ?? '',
    text: body.text,
    ...(body.encoding === undefined ? {} : { encoding: body.encoding }),
    ...(note === undefined ? {} : { comment: note }),
  };
}
