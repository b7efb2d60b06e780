// Builds a valid request (and, where possible, an invalid one) for every operation of a description,
// using the project's own schema generators in `request` mode.
import { readDescription, toOpenApi3 } from '../../dist/compiler/load/index.js';
import { buildIr } from '../../dist/compiler/ir/index.js';
import { registerSchemas } from '../../dist/compiler/emit/ajv-schemas.js';
import { createGeneratorEmitter } from '../../dist/compiler/generate/index.js';
import { createGenRuntime } from '../../dist/runtime/generate/index.js';

export async function loadOperations(file) {
  const raw = await readDescription(file, process.cwd());
  const ir = buildIr('corpus', [{ source: file, description: await toOpenApi3(file, raw.document) }], []);
  const schemas = registerSchemas(ir);
  const emitter = createGeneratorEmitter(ir.definitions);
  const g = createGenRuntime({ seed: 99 });
  const generator = (schema) => {
    const expr = emitter.expression(schema, 'request');
    return () => new Function('g', `${emitter.declarations()}\nreturn (d) => ${expr};`)(g)(0);
  };
  return { ir, schemas, generator };
}

const isJson = (type) => /json/i.test(type) || type === '*/*';

/** A request the operation must accept: path, required query/header/cookie parameters, a body when one is documented. */
export function validRequest(op, generator) {
  let path = op.path;
  const query = new URLSearchParams();
  const headers = {};
  const cookies = [];
  for (const p of op.parameters) {
    if (p.in !== 'path' && !p.required) continue;
    const make = generator(p.schema);
    let value = make();
    for (let i = 0; i < 5 && (value === '' || value === null); i++) value = make();
    const text = serialise(value);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(text));
    else if (p.in === 'query') {
      if (Array.isArray(value) && p.explode !== false) for (const v of value) query.append(p.name, serialise(v));
      else query.append(p.name, text);
    } else if (p.in === 'header') headers[p.name] = text;
    else cookies.push(`${p.name}=${encodeURIComponent(text)}`);
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  let body;
  const contents = op.requestBody?.contents ?? [];
  const json = contents.find((c) => isJson(c.mediaType) && c.schema);
  const form = contents.find((c) => c.mediaType === 'application/x-www-form-urlencoded' && c.schema);
  const multipart = contents.find((c) => c.mediaType === 'multipart/form-data' && c.schema);
  if (json) {
    headers['content-type'] = json.mediaType === '*/*' ? 'application/json' : json.mediaType;
    body = JSON.stringify(generator(json.schema)());
  } else if (form) {
    headers['content-type'] = form.mediaType;
    const value = generator(form.schema)() ?? {};
    const fields = new URLSearchParams();
    for (const [k, v] of Object.entries(value)) {
      if (Array.isArray(v)) for (const item of v) fields.append(k, serialise(item));
      else fields.append(k, serialise(v));
    }
    body = fields.toString();
  } else if (multipart) {
    const boundary = 'mockboundary';
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    const value = generator(multipart.schema)() ?? {};
    const part = (name, text) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`;
    body = Object.entries(value).map(([k, v]) => (Array.isArray(v) ? v.map((item) => part(k, serialise(item))).join('') : part(k, serialise(v)))).join('') + `--${boundary}--\r\n`;
  } else if (op.requestBody?.required && contents.length > 0) {
    headers['content-type'] = contents[0].mediaType.includes('*') ? 'application/octet-stream' : contents[0].mediaType;
    body = contents[0].mediaType.startsWith('multipart/') ? undefined : 'mock';
    if (body === undefined) {
      const boundary = 'mockboundary';
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--${boundary}--\r\n`;
    }
  }
  const qs = query.toString();
  return { method: op.method, path: qs ? `${path}?${qs}` : path, headers, body };
}

/** A request the operation must reject in enforce mode, or undefined when the description constrains nothing cheaply breakable. */
export function invalidRequest(op, generator, definitions) {
  const valid = validRequest(op, generator);
  const required = op.parameters.find((p) => p.required && p.in === 'query');
  if (required) {
    const [path, qs = ''] = valid.path.split('?');
    const query = new URLSearchParams(qs);
    query.delete(required.name);
    return { ...valid, path: query.toString() ? `${path}?${query}` : path, why: `missing query ${required.name}` };
  }
  const header = op.parameters.find((p) => p.required && p.in === 'header');
  if (header) {
    const headers = { ...valid.headers };
    delete headers[header.name];
    return { ...valid, headers, why: `missing header ${header.name}` };
  }
  const numeric = op.parameters.find((p) => p.in === 'path' && ['integer', 'number'].includes(kindOf(p.schema, definitions)));
  if (numeric) {
    const idx = op.path.indexOf(`{${numeric.name}}`);
    const before = validRequest({ ...op, path: op.path.slice(0, idx) + '\u0000' + op.path.slice(idx + numeric.name.length + 2) }, generator);
    return { ...valid, path: before.path.replace('%00', 'not-a-number').replace('\u0000', 'not-a-number'), why: `non-numeric path ${numeric.name}` };
  }
  if (valid.headers['content-type'] && /json/.test(valid.headers['content-type']) && op.requestBody?.required) {
    return { ...valid, body: '{"unterminated": ', why: 'malformed JSON body' };
  }
  return undefined;
}

function kindOf(schema, definitions, depth = 0) {
  if (!schema || depth > 10) return undefined;
  if (schema.$ref) return kindOf(definitions[schema.$ref.slice('#/definitions/'.length)], definitions, depth + 1);
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t && t !== 'null');
  return types.length === 1 ? types[0] : undefined;
}

const serialise = (v) => (typeof v === 'string' ? v : Array.isArray(v) ? v.map(serialise).join(',') : v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
