/**
 * Build-time validation of sampled values, configured as compiler/emit/ajv-schemas configures
 * the build's validators: draft-07 with formats, patterns without the `u` flag, and properties
 * a mode leaves out (writeOnly in responses, readOnly in requests) not required.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../ir/types.js';
import type { GenMode } from './api.js';
import { isSchemaObject } from './schema.js';

const ROOTS: Record<GenMode, { id: string; hidden: string }> = {
  response: { id: 'res', hidden: 'writeOnly' },
  request: { id: 'req', hidden: 'readOnly' },
};

export class SchemaJudge {
  private ajv?: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly definitions: Record<string, JsonSchema>) {}

  /** Whether `value` satisfies `schema` (whose `#/definitions/` refs point into the definitions) in `mode`. */
  accepts(schema: unknown, mode: GenMode, value: unknown): boolean {
    return this.validator(schema, mode)(value);
  }

  private validator(schema: unknown, mode: GenMode): ValidateFunction {
    const key = JSON.stringify([mode, schema]);
    let validate = this.compiled.get(key);
    if (!validate) {
      const root = ROOTS[mode];
      validate = this.instance().compile(relaxed(rebased(isSchemaObject(schema) ? schema : {}, root.id), root.hidden) as JsonSchema);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** Created on first use: most builds never sample a union. */
  private instance(): Ajv {
    if (this.ajv) return this.ajv;
    const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false, unicodeRegExp: false, logger: false });
    addFormats.default(ajv);
    for (const { id, hidden } of Object.values(ROOTS)) {
      ajv.addSchema({ $id: id, definitions: relaxed(rebased(this.definitions, id), hidden) as JsonSchema });
    }
    return (this.ajv = ajv);
  }
}

/** `#/definitions/…` references resolved against the root `id`. */
function rebased(node: unknown, id: string): unknown {
  if (Array.isArray(node)) return node.map((item) => rebased(item, id));
  if (!isSchemaObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/definitions/') ? `${id}${value}` : rebased(value, id);
  }
  return out;
}

/** Drops properties flagged `hidden` from `required`, everywhere. */
function relaxed(node: unknown, hidden: string): unknown {
  if (Array.isArray(node)) return node.map((item) => relaxed(item, hidden));
  if (!isSchemaObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) out[key] = relaxed(value, hidden);
  const properties = isSchemaObject(node.properties) ? node.properties : undefined;
  if (properties && Array.isArray(node.required)) {
    out.required = node.required.filter((name) => !(isSchemaObject(properties[name]) && properties[name][hidden] === true));
  }
  return out;
}
