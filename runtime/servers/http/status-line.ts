import { STATUS_CODES } from 'node:http';

const lines = new Map<number, string>();

/** `200 OK`, built once per status. */
export function statusLine(status: number): string {
  let line = lines.get(status);
  if (line === undefined) {
    line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
    lines.set(status, line);
  }
  return line;
}
