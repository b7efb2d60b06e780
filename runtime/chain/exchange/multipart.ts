import { MIMEType } from 'node:util';

/** Loaded with the first multipart body: most mocks never see one. */
let library: Promise<typeof import('@fastify/busboy').Busboy> | undefined;

/** Parts by name, in the order they came. */
export type FormParts = ReadonlyMap<string, string[]>;

/**
 * More parts than a form has: refused before parsing. The parser spends tens of microseconds a
 * part, so a body of http.max_body_bytes (10 MB) cut into 200,000 empty parts held the event loop
 * for seconds; 1,000 parts cost milliseconds.
 */
export const MAX_FORM_PARTS = 1000;

const MALFORMED = 'malformed multipart body: parts do not follow the declared boundary';

const MULTIPART = /^\s*multipart\/[^;\s]+/i;

export const isMultipart = (contentType: string | undefined): contentType is string => contentType !== undefined && MULTIPART.test(contentType);

/**
 * The named parts of a multipart body (RFC 7578's form-data; another subtype's parts are read the
 * same way, by their Content-Disposition names), enough to validate the fields against
 * their schema: fields decoded from their part's charset, file contents as UTF-8 text (as
 * `format: binary` expects). Parsed by @fastify/busboy, which knows the RFC's edge cases (quoted
 * and token parameters, `filename*`, charsets, folded part headers) and bounds part headers (2000
 * pairs, 80 KB); the body itself is already bounded by http.max_body_bytes, so no field or name is
 * cut short, and a body of more than MAX_FORM_PARTS parts is refused unparsed. Resolves the
 * parts, or the validation error that refuses the body.
 */
export async function readMultipart(raw: Buffer, contentType: string): Promise<FormParts | string> {
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) return MALFORMED;
  if (delimiters(raw, boundary) > MAX_FORM_PARTS + 1) return `multipart body refused: more than ${MAX_FORM_PARTS} parts`;
  const Busboy = await (library ??= import('@fastify/busboy').then((m) => m.Busboy));
  return new Promise((resolve) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({ headers: { 'content-type': contentType.replace(MULTIPART, 'multipart/form-data') }, limits: { fieldNameSize: raw.length, fieldSize: raw.length } });
    } catch {
      resolve(MALFORMED);
      return;
    }
    const parts = new Map<string, string[]>();
    // a slot per part when it starts: a file's content ends later than the fields after it
    const slot = (name: string | undefined): { values: string[]; at: number } | undefined => {
      if (name === undefined) return undefined;
      let values = parts.get(name);
      if (values === undefined) parts.set(name, (values = []));
      return { values, at: values.push('') - 1 };
    };
    let failed = false;
    parser.on('field', (name: string, value: string) => {
      const into = slot(name);
      if (into !== undefined) into.values[into.at] = value;
    });
    parser.on('file', (name: string | undefined, file: NodeJS.ReadableStream) => {
      const into = slot(name);
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      file.on('end', () => {
        if (into !== undefined) into.values[into.at] = Buffer.concat(chunks).toString('utf8');
      });
    });
    parser.on('error', () => {
      failed = true;
      resolve(MALFORMED);
    });
    parser.on('finish', () => {
      if (!failed) resolve(parts);
    });
    parser.end(raw);
  });
}

function boundaryOf(contentType: string): string | undefined {
  try {
    return new MIMEType(contentType).params.get('boundary') ?? undefined;
  } catch {
    return undefined;
  }
}

/** How many delimiters the body holds (the parts and the close), counted without parsing. */
function delimiters(raw: Buffer, boundary: string): number {
  const delimiter = Buffer.from(`--${boundary}`);
  let count = 0;
  for (let at = raw.indexOf(delimiter); at !== -1 && count <= MAX_FORM_PARTS + 1; at = raw.indexOf(delimiter, at + delimiter.length)) count++;
  return count;
}
