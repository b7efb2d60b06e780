import type { Ir, IrContent, IrCustomRoute, IrOperation, IrResponse, JsonSchema } from '../ir/types.js';
import type { AjvSchemas } from './ajv-schemas.js';
import { createGeneratorEmitter, type GeneratorEmitter } from '../generate/index.js';
import { compileTemplate, hasTemplate, TemplateSyntaxError } from '../template/index.js';
import { toXml } from '../../common/xml.js';
import { MockError } from '../../common/errors.js';
import { bodyFormat, type BodyFormat } from './media.js';
import { resolveSchema } from './value-kind.js';
import { comment } from './comment.js';
import { GENERATED_HEADER } from './header.js';
import { importContract } from './contract.js';
import { auditGenerators, type AuditEntry } from './generator-audit.js';

export interface ResponderWarnings {
  /** Examples that do not validate against their schema (kept, but not served by default). */
  invalidExamples: string[];
  /** Operations documenting no response at all (OpenAPI 3.1 allows it): they answer 204. */
  noResponses: string[];
  /** Operations whose only success is 1xx (101 Switching Protocols): they answer 204. */
  switchesProtocols: string[];
  /** Schemas (or response schemas) no generated value satisfies, found by sampling the generators. */
  unsatisfiable: string[];
}

/** What emitting every operation shares, and collects on the way. */
interface Emission {
  gen: GeneratorEmitter;
  schemas: AjvSchemas;
  definitions: Record<string, JsonSchema>;
  warnings: ResponderWarnings;
  /** Generated response bodies, audited once every generator is emitted. */
  bodies: AuditEntry[];
}

/**
 * responders.ts: per operation and status, pre-serialised examples (with their templates
 * parsed into functions) and a generator specialised to the schema. Everything that can be
 * decided at build time is: the default status, the default example, the body's format.
 */
export function emitResponders(ir: Ir, schemas: AjvSchemas, progress?: (done: number) => void): { ts: string; js: string; warnings: ResponderWarnings } {
  const gen = createGeneratorEmitter(ir.definitions);
  const warnings: ResponderWarnings = {
    invalidExamples: [],
    noResponses: ir.operations.filter((op) => op.responses.length === 0).map((op) => op.key),
    switchesProtocols: ir.operations.filter((op) => switchesProtocols(op.responses)).map((op) => op.key),
    unsatisfiable: [],
  };
  const emission: Emission = { gen, schemas, definitions: ir.definitions, warnings, bodies: [] };
  const ops = ir.operations.map((op, i) => {
    if (i % 100 === 0) progress?.(i);
    return emitOperation(op, emission);
  });
  // request mode, as a client would send them: readOnly properties left out
  const callbacks = parameterGenerators(ir.callbacks, gen);
  const webhooks = parameterGenerators(ir.webhooks, gen);
  warnings.unsatisfiable = [...gen.leftOut(), ...auditGenerators(emission.bodies, ir.definitions, gen, schemas)];
  const routes = ir.routes.map((route) => emitRoute(route));
  // the same code twice, annotated in the .ts: the .js twin needs no TypeScript pass
  const body = (typed: boolean): string => `export function createResponders(g${typed ? ': GenRuntime): Responders' : ')'} {
${indent(gen.declarations(typed ? 'ts' : 'js'), 2)}

  /** Per operation: the status served by default and every documented response. */
  const operations${typed ? ': OperationResponders[]' : ''} = [
${ops.map((o) => indent(o, 4)).join(',\n')}
  ];

  /** Responses of the custom routes in mock.yaml. */
  const routes${typed ? ': RouteResponder[]' : ''} = [
${routes.map((r) => indent(r, 4)).join(',\n')}
  ];

${generatorTable('callbacks', callbacks, typed)}${generatorTable('webhooks', webhooks, typed)}  return { ${['operations', 'routes', ...(callbacks.length === 0 ? [] : ['callbacks']), ...(webhooks.length === 0 ? [] : ['webhooks'])].join(', ')} };
}
`;
  const types = importContract(['GenRuntime', 'OperationResponders', 'Responders', 'RouteResponder']);
  return { ts: `${GENERATED_HEADER}\n${types}\n${body(true)}`, js: `${GENERATED_HEADER}${body(false)}`, warnings };
}

function emitOperation(op: IrOperation, emission: Emission): string {
  const responses = op.responses.map((r, ri) => emitResponse(op, r, ri, emission));
  return `${comment(op.key)} {\n  defaultResponse: ${defaultResponse(op.responses)},\n  responses: [\n${responses.map((r) => indent(r, 4)).join(',\n')}\n  ],\n}`;
}

/**
 * The operation's first 2xx in document order, else its first 3xx (a redirect is how such an
 * operation succeeds), else `default`, else its first documented response whatever it is (a `5XX`
 * range answers 500): what the description says happens, never an invented status. -1 only when
 * nothing is documented (the engine answers 204).
 */
function defaultResponse(responses: IrResponse[]): number {
  for (const prefix of ['2', '3']) {
    const success = responses.findIndex((r) => r.status.startsWith(prefix));
    if (success >= 0) return success;
  }
  // a 101 is a protocol switch the mock cannot perform: such an operation answers 204 (and the build says so)
  if (switchesProtocols(responses)) return -1;
  const fallback = responses.findIndex((r) => r.status === 'default');
  return fallback >= 0 ? fallback : responses.length > 0 ? 0 : -1;
}

const switchesProtocols = (responses: IrResponse[]): boolean => !responses.some((r) => r.status.startsWith('2')) && responses.some((r) => r.status.startsWith('1'));

function emitResponse(op: IrOperation, r: IrResponse, ri: number, emission: Emission): string {
  const { gen, schemas } = emission;
  const status = r.status === 'default' ? 200 : Number(r.status.replace(/XX$/, '00'));
  const headers = r.headers
    .filter((h) => h.example !== undefined || h.schema)
    .map((h) => `[${JSON.stringify(h.name)}, ${h.example !== undefined ? `() => ${JSON.stringify(String(h.example))}` : `() => String(${gen.expression(h.schema as JsonSchema, 'response')})`}]`);
  const ids = schemas.ids[op.index];
  const contents = r.contents.map((c, ci) => emitContent(`${op.key} ${r.status} ${c.mediaType}`, c, ids.responses[ri][ci], emission, ids.responseItems[ri][ci]));
  return [
    '{',
    `  code: ${JSON.stringify(r.status)},`,
    `  status: ${status},`,
    `  headers: [${headers.join(', ')}],`,
    `  contents: [\n${contents.map((c) => indent(c, 4)).join(',\n')}\n  ],`,
    '}',
  ].join('\n');
}

/**
 * The media type a wildcard (`*` + `/*`, `application/*`, `text/*` …) response is served as,
 * decided by what it holds: JSON only when the schema or example is JSON data, text for strings,
 * octet-stream for binary strings or nothing at all.
 */
function servedType(c: IrContent, definitions: Record<string, JsonSchema>): string {
  const [major, minor] = c.mediaType.split(';')[0].trim().toLowerCase().split('/');
  if (minor !== '*') return c.mediaType;
  if (major === 'text') return 'text/plain';
  if (major !== '*' && major !== 'application') return 'application/octet-stream';
  if (c.schema === undefined) {
    if (c.examples.length === 0) return 'application/octet-stream';
    return typeof c.examples[0].value === 'string' ? 'text/plain' : 'application/json';
  }
  const schema = resolveSchema(c.schema, definitions);
  if (schema.type === 'string') return schema.format === 'binary' || schema.format === 'byte' || schema.contentMediaType !== undefined ? 'application/octet-stream' : 'text/plain';
  return 'application/json';
}

function emitContent(where: string, c: IrContent, validatorId: string | undefined, emission: Emission, itemValidatorId?: string): string {
  const { gen, schemas, warnings } = emission;
  const type = servedType(c, emission.definitions);
  const format = bodyFormat(type);
  const root = xmlRoot(c.schema);
  const validate = validatorId && format === 'json' ? schemas.ajv.getSchema(validatorId) : undefined;
  const examples = c.examples.map((e) => {
    const body = serialise(e.value, format, root);
    const template = templateSource(body, format, `${where} example "${e.name}"`);
    // an example holding template tokens is checked once expanded, not here
    const valid = template !== null || !validate || validate(e.value) === true;
    if (!valid) warnings.invalidExamples.push(`${where} example "${e.name}"`);
    return { valid, source: `{ name: ${JSON.stringify(e.name)}, valid: ${valid}, body: ${JSON.stringify(body)}, template: ${template ?? 'null'} }` };
  });
  const expression = c.schema && format !== 'binary' ? gen.expression(c.schema, 'response') : undefined;
  if (c.schema && expression !== undefined && validate && validatorId) emission.bodies.push({ where, schema: c.schema, expression, validatorId });
  const generate = expression !== undefined ? `(d) => ${expression}` : c.schema ? '() => "binary"' : 'null';
  // the first valid example; else generate; else (no schema to generate from) the first example anyway
  const firstValid = examples.findIndex((e) => e.valid);
  const preferred = firstValid !== -1 ? firstValid : !c.schema && examples.length > 0 ? 0 : -1;
  return [
    '{',
    `  type: ${JSON.stringify(type)},`,
    `  format: ${JSON.stringify(format)},`,
    `  xmlRoot: ${JSON.stringify(root)},`,
    `  validator: ${JSON.stringify(format === 'json' ? (validatorId ?? null) : null)},`,
    `  preferred: ${preferred},`,
    `  examples: [${examples.length > 0 ? '\n' + examples.map((e) => '    ' + e.source).join(',\n') + '\n  ' : ''}],`,
    `  generate: ${generate},`,
    ...(c.sequence === undefined ? [] : [`  sequence: ${emitSequence(where, c, itemValidatorId, emission)},`]),
    '}',
  ].join('\n');
}

/**
 * A sequential media type's items: the examples' (an array example is its members), each checked
 * against the item schema, and the item's generator. Examples that do not fit are left out, with
 * the build's invalid-example warning.
 */
function emitSequence(where: string, c: IrContent, validatorId: string | undefined, emission: Emission): string {
  const sequence = c.sequence!;
  const validate = validatorId === undefined ? undefined : emission.schemas.ajv.getSchema(validatorId);
  const items: unknown[] = [];
  for (const e of c.examples) {
    const members = Array.isArray(e.value) && sequence.from !== 'schema' ? e.value : [e.value];
    if (validate && !members.every((m) => validate(m) === true)) {
      emission.warnings.invalidExamples.push(`${where} example "${e.name}" (an item does not fit the item schema)`);
      continue;
    }
    items.push(...members);
  }
  const expression = sequence.itemSchema === undefined ? undefined : emission.gen.expression(sequence.itemSchema, 'response');
  if (sequence.itemSchema && expression !== undefined && validatorId) emission.bodies.push({ where: `${where} item`, schema: sequence.itemSchema, expression, validatorId });
  return `{ framing: ${JSON.stringify(sequence.framing)}, validator: ${JSON.stringify(validatorId ?? null)}, examples: ${JSON.stringify(items)}, generate: ${expression === undefined ? 'null' : `(d) => ${expression}`} }`;
}

function emitRoute(route: IrCustomRoute): string {
  const body = route.response.body;
  const type = route.response.contentType ?? (body === undefined ? null : typeof body === 'string' ? 'text/plain' : 'application/json');
  const format: BodyFormat = type ? bodyFormat(type) : 'text';
  const text = body === undefined ? '' : serialise(body, format, 'root');
  const template = templateSource(text, format, `http.routes[${route.index}] response body`);
  const headers = Object.entries(route.response.headers).map(([k, v]) => `[${JSON.stringify(k)}, ${JSON.stringify(v)}, ${templateSource(v, 'text', `http.routes[${route.index}] header ${k}`) ?? 'null'}]`);
  return `${comment(`${route.method} ${route.path}`)} { status: ${route.response.status}, type: ${JSON.stringify(type)}, headers: [${headers.join(', ')}], body: ${JSON.stringify(text)}, template: ${template ?? 'null'} }`;
}

function templateSource(body: string, format: BodyFormat, where: string): string | null {
  if (!hasTemplate(body)) return null;
  try {
    return compileTemplate(body, format === 'json' ? 'json' : 'none');
  } catch (e) {
    if (e instanceof TemplateSyntaxError) throw new MockError('MOCK_ERR_TEMPLATE', `${where}: template error: ${e.message} (fix the {{…}} token)`);
    throw e;
  }
}

export function serialise(value: unknown, format: BodyFormat, root: string): string {
  if (format === 'xml') return typeof value === 'string' ? value : toXml(value, root);
  if (format === 'json') return JSON.stringify(value) ?? 'null';
  if (format === 'form' && value && typeof value === 'object') return new URLSearchParams(Object.entries(value).map(([k, v]) => [k, String(v)])).toString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** XML root element: the referenced definition's name, else `root`. */
function xmlRoot(schema: JsonSchema | undefined): string {
  const xml = schema?.xml as { name?: string } | undefined;
  if (xml?.name) return xml.name;
  const ref = typeof schema?.$ref === 'string' ? schema.$ref : undefined;
  if (ref) return ref.slice('#/definitions/'.length);
  return typeof schema?.type === 'string' && schema.type === 'array' ? 'items' : 'root';
}

const indent = (text: string, n: number): string => text.split('\n').map((l) => (l ? ' '.repeat(n) + l : l)).join('\n');

/**
 * Per callback or webhook, per parameter: a generator (request mode, as a client would send it:
 * readOnly properties left out) of a value the description does not give, else null. None when no
 * parameter is generated, so that builds without any stay as they were.
 */
function parameterGenerators(entries: ReadonlyArray<{ parameters?: ReadonlyArray<{ schema?: JsonSchema }> }>, gen: GeneratorEmitter): string[] {
  if (!entries.some((e) => e.parameters?.some((p) => p.schema !== undefined))) return [];
  return entries.map((e) => `[${(e.parameters ?? []).map((p) => (p.schema === undefined ? 'null' : `() => ${gen.expression(p.schema, 'request')}`)).join(', ')}]`);
}

/** The `callbacks` or `webhooks` table of createResponders, when it has one. */
function generatorTable(name: 'callbacks' | 'webhooks', rows: string[], typed: boolean): string {
  if (rows.length === 0) return '';
  return `  /** By the build's ${name}, then their parameters: generators of the values the description does not give. */
  const ${name}${typed ? ': Array<Array<(() => unknown) | null>>' : ''} = [
${rows.map((row) => `    ${row}`).join(',\n')}
  ];

`;
}
