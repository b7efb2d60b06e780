import { Busboy } from '@fastify/busboy';

/** Parts by name, in the order they came; null when the body does not follow its boundary. */
export type FormParts = ReadonlyMap<string, string[]>;

const MULTIPART = /^\s*multipart\/[^;\s]+/i;

export const isMultipart = (contentType: string | undefined): contentType is string => contentType !== undefined && MULTIPART.test(contentType);

/**
 * The named parts of a multipart body (RFC 7578's form-data; another subtype's parts are read the
 * same way, by their Content-Disposition names), enough to validate the fields against
 * their schema: fields decoded from their part's charset, file contents as UTF-8 text (as
 * `format: binary` expects). Parsed by @fastify/busboy, which knows the RFC's edge cases (quoted
 * and token parameters, `filename*`, charsets, folded part headers) and bounds part headers (2000
 * pairs, 80 KB); the body itself is already bounded by http.max_body_bytes, so no field or name is
 * cut short. Resolves undefined when the body does not follow the boundary it declares.
 */
export function readMultipart(raw: Buffer, contentType: string): Promise<FormParts | undefined> {
  return new Promise((resolve) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({ headers: { 'content-type': contentType.replace(MULTIPART, 'multipart/form-data') }, limits: { fieldNameSize: raw.length, fieldSize: raw.length } });
    } catch {
      resolve(undefined); // no boundary parameter
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
      resolve(undefined);
    });
    parser.on('finish', () => {
      if (!failed) resolve(parts);
    });
    parser.end(raw);
  });
}
