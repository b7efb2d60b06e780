// Shared by the `mock data` tests: run the command, parse its CSV back, get the schemas to check against.
import { parse as parseYaml } from 'yaml';
import { runMock } from '../helpers/cli.js';

/** `mock data <args>` with no MOCK_SEED from this environment unless given. */
export const runData = (args, options = {}) => runMock(['data', ...args], { ...options, env: { MOCK_SEED: '', ...options.env } });

/** The values a run printed, as an array whatever --count was. */
export function valuesOf(stdout, format, count) {
  const parsed = format === 'yaml' ? parseYaml(stdout) : JSON.parse(stdout);
  return count === 1 ? [parsed] : parsed;
}

/** RFC 4180: quoted cells may hold commas, doubled quotes and line breaks. */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell), rows.push(row), (row = []), (cell = '');
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) row.push(cell), rows.push(row);
  const [header, ...body] = rows;
  return { header, rows: body.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]]))) };
}

/** What each CSV row should hold for a JSON value (written independently of src/data/format.ts). */
export function expectedRow(value) {
  const out = {};
  const text = (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const walk = (object, prefix) => {
    for (const [k, v] of Object.entries(object)) {
      if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) walk(v, `${prefix}${k}.`);
      else out[prefix + k] = text(v);
    }
  };
  if (value && typeof value === 'object' && !Array.isArray(value)) walk(value, '');
  else out.value = text(value);
  return out;
}

/** A CSV row back into an object: dotted columns nest, JSON text of arrays/objects is parsed, empty cells are left out. */
export function unflatten(row) {
  const out = {};
  for (const [column, cell] of Object.entries(row)) {
    if (cell === '') continue;
    let value = cell;
    if (/^[[{]/.test(cell)) {
      try {
        value = JSON.parse(cell);
      } catch {
        // text that merely starts with a bracket
      }
    }
    const keys = column.split('.');
    let node = out;
    for (const key of keys.slice(0, -1)) node = node[key] ??= {};
    node[keys.at(-1)] = value;
  }
  return out;
}

/**
 * The Ajv validator of an operation's response (or request body) media type, from the same IR
 * and schema registration the build uses.
 */
export async function operationValidator(spec, method, specPath, { status, mediaType = 'application/json', mode = 'response' } = {}) {
  // loaded here, not at the top: the compiler's loader is most of a test process's start, and
  // most files of these tests never call this
  const [{ readDescription, toOpenApi3 }, { buildIr }, { registerSchemas }] = await Promise.all([
    import('../../dist/compiler/load/index.js'),
    import('../../dist/compiler/ir/index.js'),
    import('../../dist/compiler/emit/ajv-schemas.js'),
  ]);
  const raw = await readDescription(spec, process.cwd());
  const ir = buildIr('test', [{ source: spec, description: await toOpenApi3(spec, raw.document) }], []);
  const schemas = registerSchemas(ir);
  const op = ir.operations.find((o) => o.method === method && o.specPath === specPath);
  if (!op) throw new Error(`no ${method} ${specPath} in ${spec}`);
  let id;
  if (mode === 'request') id = schemas.ids[op.index].bodies[op.requestBody.contents.findIndex((c) => c.mediaType === mediaType)];
  else {
    const ri = status ? op.responses.findIndex((r) => r.status === status) : op.responses.findIndex((r) => r.status.startsWith('2'));
    id = schemas.ids[op.index].responses[ri][op.responses[ri].contents.findIndex((c) => c.mediaType === mediaType)];
  }
  const validate = schemas.ajv.getSchema(id);
  if (!validate) throw new Error(`no validator for ${method} ${specPath}`);
  return { validate, op, ir };
}

/** Ajv's errors, short enough for an assertion message. */
export const errorsOf = (validate) => JSON.stringify((validate.errors ?? []).slice(0, 3));
