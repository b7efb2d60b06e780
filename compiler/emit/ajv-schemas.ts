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
}

export interface AjvSchemas {
  ajv: Ajv;
  ids: OperationValidatorIds[];
  /** export name -> schema $id, for standalone code. */
  exports: Record<string, string>;
  /** `pattern` keywords the linear-time engine cannot run (they use lookarounds or backreferences), sorted. */
  backtrackingPatterns(): string[];
}

/**
 * Registers every operation's schemas in one Ajv instance. Definitions are added twice: as
 * `req` (readOnly properties not required) and `res` (writeOnly properties not required),
 * because a client never sends the former and a server never returns the latter.
 */
export function registerSchemas(ir: Ir): AjvSchemas {
  const backtracking = new Set<string>();
  // patterns run on request data: the generated code compiles them with the linear-time engine
  const regExp = Object.assign(
    (source: string, flags: string) => {
      const pattern = schemaPattern(source, flags);
      if (pattern.backtracking) backtracking.add(source);
      return pattern;
    },
    { code: `require(${JSON.stringify(SCHEMA_PATTERN_MODULE)})` },
  );
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
  ajv.addSchema({ $id: 'req', definitions: mapDefinitions(ir.definitions, 'readOnly') });
  ajv.addSchema({ $id: 'res', definitions: mapDefinitions(ir.definitions, 'writeOnly') });

  const exports: Record<string, string> = {};
  const add = (id: string, schema: JsonSchema, root: 'req' | 'res'): string => {
    ajv.addSchema({ ...relax(rebase(discriminated(schema, ir.definitions), root), root === 'req' ? 'readOnly' : 'writeOnly'), $id: id });
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
      r.contents.map((c, ci) => (c.schema && bodyFormat(c.mediaType) === 'json' ? add(`r${op.index}_${ri}_${ci}`, c.schema, 'res') : undefined)),
    ),
  }));
  return { ajv, ids, exports, backtrackingPatterns: () => [...backtracking].sort() };
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

function mapDefinitions(definitions: Record<string, JsonSchema>, hidden: 'readOnly' | 'writeOnly'): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(definitions).map(([name, schema]) => [name, relax(discriminated(schema, definitions), hidden)]));
}

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

/** Operation schemas live outside the definitions root: point their refs at it. */
function rebase(schema: JsonSchema, root: 'req' | 'res'): JsonSchema {
  return mapSchema(schema, (node) =>
    typeof node.$ref === 'string' && node.$ref.startsWith('#/definitions/') ? { ...node, $ref: root + node.$ref } : node,
  );
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
