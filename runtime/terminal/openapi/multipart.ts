/**
 * Reads the named parts of a multipart/form-data body into name -> values, enough to validate
 * the fields against their schema (file contents become strings, as `format: binary` expects).
 * Returns undefined when the body does not follow the boundary it declares.
 */
export function parseMultipart(raw: Buffer, contentType: string): Map<string, string[]> | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!match) return undefined;
  const boundary = (match[1] ?? match[2]).trim();
  const delimiter = Buffer.from(`--${boundary}`);
  // a delimiter only counts at the start of a line
  const lineDelimiter = Buffer.from(`\r\n--${boundary}`);
  const out = new Map<string, string[]>();
  // the first delimiter opens the body or a line (after a preamble)
  let start = raw.subarray(0, delimiter.length).equals(delimiter) ? 0 : raw.indexOf(lineDelimiter);
  if (start === -1) return undefined;
  if (start > 0) start += 2;
  while (true) {
    start += delimiter.length;
    if (raw[start] === 0x2d && raw[start + 1] === 0x2d) return out;
    const found = raw.indexOf(lineDelimiter, start);
    if (found === -1) return undefined;
    const next = found + 2;
    const part = raw.subarray(start, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) return undefined;
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
    // the part's content ends before the CRLF that precedes the next delimiter
    const content = part.subarray(headerEnd + 4, part.length - 2).toString('utf8');
    if (name !== undefined) {
      const list = out.get(name);
      if (list) list.push(content);
      else out.set(name, [content]);
    }
    start = next;
  }
}
