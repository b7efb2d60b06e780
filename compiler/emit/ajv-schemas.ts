import { Ajv, _ } from 'ajv';
import { SCHEMA_PATTERN_MODULE, schemaPattern } from '../../common/patterns/index.js';
import addFormats from 'ajv-formats';
import { formatNames } from 'ajv-formats/dist/formats.js';
import type { Ir, IrOperation, JsonSchema } from '../ir/types.js';
import { discriminated } from './discriminated.js';
import { mapSchema, walkSchema } from './schema-walk.js';
import { bodyFormat } from './media.js';

/** Export names of the validators of one operation. */
export interface OperationValidatorIds {
  params?: string;
  /** Per request content index; only JSON and form bodies are validated. */
  bodies: (string | undefined)[];
  /** [response index][content index] */
  responses: (string | undefined)[][];
  /** One item of a sequential request body (docs/streaming.md), per request content index. */
  bodyItems: (string | undefined)[];
  /** One item of a sequential response, [response index][content index]. */
  responseItems: (string | undefined)[][];
}

export interface AjvSchemas {
  ajv: Ajv;
  ids: OperationValidatorIds[];
  /** export name -> schema $id, for standalone code. */
  exports: Record<string, string>;
}

/**
 * Registers every operation's schemas in one Ajv instance. A client never sends readOnly
 * properties and a server never returns writeOnly ones, so requests see definitions with the
 * former not required (root `req`) and responses with the latter not required (`res`). Only
 * definitions that this changes, or that reach one through $refs, need their own copy: every
 * other reference goes to the shared root `def`, so most definitions compile to one validator
 * function instead of two (half the validators of a large description).
 */
export function registerSchemas(ir: Ir): AjvSchemas {
  // patterns run on request data: the generated code compiles them with the linear-time engine
  const regExp = Object.assign((source: string, flags: string) => schemaPattern(source, flags), { code: `require(${JSON.stringify(SCHEMA_PATTERN_MODULE)})` });
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateSchema: false,
    unicodeRegExp: false,
    logger: false,
    // shared definitions become one function each instead of being inlined into every caller
    inlineRefs: false,
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats`, regExp },
  });
  addFormats.default(ajv);
  for (const format of unknownFormats(ir)) ajv.addFormat(format, true);
  const definitions = Object.fromEntries(Object.entries(ir.definitions).map(([name, schema]) => [name, discriminated(schema, ir.definitions)]));
  const roots = { req: retargeter('req', affectedBy(definitions, 'readOnly')), res: retargeter('res', affectedBy(definitions, 'writeOnly')) };
  const prepare = (schema: JsonSchema, root: 'req' | 'res'): JsonSchema => relax(retarget(schema, roots[root]), HIDDEN[root]);
  ajv.addSchema({ $id: 'def', definitions });
  for (const root of ['req', 'res'] as const) {
    ajv.addSchema({ $id: root, definitions: Object.fromEntries(Object.entries(definitions).map(([name, schema]) => [name, prepare(schema, root)])) });
  }

  const exports: Record<string, string> = {};
  // Operations repeat schemas (GitHub answers 1,506 errors with `$ref: basic-error`, and repeats
  // large inline ones): one validator per distinct schema, shared by every use of it.
  const byContent = new Map<string, string>();
  const add = (id: string, schema: JsonSchema, root: 'req' | 'res'): string => {
    const prepared = prepare(discriminated(schema, ir.definitions), root);
    const key = `${root} ${JSON.stringify(prepared)}`;
    const existing = byContent.get(key);
    if (existing !== undefined) return existing;
    byContent.set(key, id);
    ajv.addSchema({ ...prepared, $id: id });
    exports[id] = id;
    return id;
  };
  const ids = ir.operations.map((op) => ({
    params: op.parameters.length > 0 ? add(`p${op.index}`, paramsSchema(op), 'req') : undefined,
    bodies: (op.requestBody?.contents ?? []).map((c, ci) => {
      const format = bodyFormat(c.mediaType);
      return c.schema && (format === 'json' || format === 'form' || format === 'multipart') ? add(`b${op.index}_${ci}`, c.schema, 'req') : undefined;
    }),
    responses: op.responses.map((r, ri) =>
      r.contents.map((c, ci) => (c.schema && c.sequence === undefined && bodyFormat(c.mediaType) === 'json' ? add(`r${op.index}_${ri}_${ci}`, c.schema, 'res') : undefined)),
    ),
    bodyItems: (op.requestBody?.contents ?? []).map((c, ci) => (c.sequence?.itemSchema ? add(`bi${op.index}_${ci}`, c.sequence.itemSchema, 'req') : undefined)),
    responseItems: op.responses.map((r, ri) => r.contents.map((c, ci) => (c.sequence?.itemSchema ? add(`ri${op.index}_${ri}_${ci}`, c.sequence.itemSchema, 'res') : undefined))),
  }));
  return { ajv, ids, exports };
}

/** One object per parameter location, so an error's instancePath names location and parameter. */
function paramsSchema(op: IrOperation): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const location of ['path', 'query', 'header', 'cookie'] as const) {
    const params = op.parameters.filter((p) => p.in === location);
    if (params.length === 0) continue;
    const names = params.filter((p) => p.required).map((p) => p.name);
    properties[location] = {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
      ...(names.length > 0 ? { required: names } : {}),
    };
    if (names.length > 0) required.push(location);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

const HIDDEN = { req: 'readOnly', res: 'writeOnly' } as const;
const DEF = '#/definitions/';

/** Whether `relax(schema, hidden)` would change the schema itself (not following $refs). */
function relaxes(schema: JsonSchema, hidden: 'readOnly' | 'writeOnly'): boolean {
  let found = false;
  walkSchema(schema, (node) => {
    const props = node.properties as Record<string, JsonSchema> | undefined;
    if (props && Array.isArray(node.required) && (node.required as string[]).some((name) => props[name]?.[hidden] === true)) found = true;
  });
  return found;
}

/** Definitions `relax` changes, and every definition that reaches one of them through $refs. */
function affectedBy(definitions: Record<string, JsonSchema>, hidden: 'readOnly' | 'writeOnly'): Set<string> {
  const referrers = new Map<string, Set<string>>();
  for (const [name, schema] of Object.entries(definitions)) {
    walkSchema(schema, (node) => {
      if (typeof node.$ref !== 'string' || !node.$ref.startsWith(DEF)) return;
      const target = node.$ref.slice(DEF.length);
      if (!referrers.has(target)) referrers.set(target, new Set());
      referrers.get(target)?.add(name);
    });
  }
  const affected = new Set(Object.keys(definitions).filter((name) => relaxes(definitions[name], hidden)));
  const queue = [...affected];
  while (queue.length > 0) {
    for (const referrer of referrers.get(queue.pop() as string) ?? []) {
      if (affected.has(referrer)) continue;
      affected.add(referrer);
      queue.push(referrer);
    }
  }
  return affected;
}

/** Where a definition reference of `root` goes: its own copy when affected, else the shared one. */
const retargeter =
  (root: 'req' | 'res', affected: ReadonlySet<string>) =>
  (name: string): string =>
    `${affected.has(name) ? root : 'def'}${DEF}${name}`;

/** Drops properties marked `hidden` from `required`. */
function relax(schema: JsonSchema, hidden: 'readOnly' | 'writeOnly'): JsonSchema {
  return mapSchema(schema, (node) => {
    const props = node.properties as Record<string, JsonSchema> | undefined;
    if (!props || !Array.isArray(node.required)) return node;
    const required = (node.required as string[]).filter((name) => props[name]?.[hidden] !== true);
    if (required.length === node.required.length) return node;
    const { required: _dropped, ...rest } = node;
    return required.length > 0 ? { ...rest, required } : rest;
  });
}

/** `#/definitions/X` references as absolute ids: the root's own copy of X, or the shared one. */
function retarget(schema: JsonSchema, target: (name: string) => string): JsonSchema {
  return mapSchema(schema, (node) => (typeof node.$ref === 'string' && node.$ref.startsWith(DEF) ? { ...node, $ref: target(node.$ref.slice(DEF.length)) } : node));
}

function unknownFormats(ir: Ir): string[] {
  const known = new Set<string>(formatNames);
  const found = new Set<string>();
  const visit = (node: JsonSchema): void => {
    if (typeof node.format === 'string' && !known.has(node.format)) found.add(node.format);
  };
  for (const schema of Object.values(ir.definitions)) walkSchema(schema, visit);
  for (const op of ir.operations) {
    for (const p of op.parameters) walkSchema(p.schema, visit);
    for (const c of op.requestBody?.contents ?? []) walkSchema(c.schema, visit);
    for (const r of op.responses) for (const c of r.contents) walkSchema(c.schema, visit);
    for (const r of op.responses) for (const h of r.headers) walkSchema(h.schema, visit);
  }
  return [...found].sort();
}
