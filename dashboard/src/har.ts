import type { LogEntry } from './types';

/**
 * Log entries as a HAR 1.2 document (what browsers' network panels and `mock fixtures import`
 * read). The log keeps request headers and sizes, not bodies: responses carry their size only.
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
            bodySize: -1,
          },
          response: {
            status: e.status_code,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [],
            content: { size: e.response_size_bytes, mimeType: '' },
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
