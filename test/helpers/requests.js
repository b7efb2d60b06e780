// Valid requests come from the project's own request factory (src/requests); this adds, where the
// description constrains something cheaply breakable, a request enforce mode must reject.
import { readDescription, toOpenApi3 } from '../../dist/compiler/load/index.js';
import { buildIr } from '../../dist/compiler/ir/index.js';
import { registerSchemas } from '../../dist/compiler/emit/ajv-schemas.js';
import { createRequestFactory } from '../../dist/src/requests/index.js';

export async function loadOperations(file) {
  const raw = await readDescription(file, process.cwd());
  const ir = buildIr('corpus', [{ source: file, description: await toOpenApi3(file, raw.document) }], []);
  return { ir, schemas: registerSchemas(ir), factory: createRequestFactory(ir.definitions, 99) };
}

/** Reads and converts descriptions, for loadOperationsOf: `{source, description}` each, in order. */
export async function readDescriptions(sources) {
  const out = [];
  for (const source of sources) {
    const raw = await readDescription(source, process.cwd());
    out.push({ source, description: await toOpenApi3(source, raw.document) });
  }
  return out;
}

/**
 * loadOperations over several descriptions served together: `inputs` ({source, description,
 * basePath}, from readDescriptions) in the order of mock.yaml's `specs`, each with its base_path,
 * give the IR (operation indexes, schema ids) of the one build `mock serve` makes of them.
 */
export function loadOperationsOf(inputs) {
  const ir = buildIr('corpus', inputs, []);
  return { ir, schemas: registerSchemas(ir), factory: createRequestFactory(ir.definitions, 99) };
}

export function invalidRequest(op, factory, definitions) {
  const valid = factory.valid(op);
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
    const marked = factory.valid({ ...op, path: op.path.replace(`{${numeric.name}}`, 'NOT_A_NUMBER') });
    return { ...valid, path: marked.path.replace('NOT_A_NUMBER', 'not-a-number'), why: `non-numeric path ${numeric.name}` };
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
