/**
 * Build-time check that generated answers match their schemas: a few values of every response
 * generator go through the build's own validator. When some fail, the definitions they use are
 * sampled in turn, so that the warning names the schema no generated value satisfies (and which
 * may admit no value at all) rather than only an operation.
 */
import type { ErrorObject } from 'ajv';
import type { JsonSchema } from '../ir/types.js';
import type { GeneratorEmitter } from '../generate/index.js';
import type { AjvSchemas } from './ajv-schemas.js';
import { walkSchema } from './schema-walk.js';

/** A response body generator to check. */
export interface AuditEntry {
  /** `GET /pets 200 application/json` */
  where: string;
  schema: JsonSchema;
  /** Its generator, as gen.expression() made it. */
  expression: string;
  validatorId: string;
}

const SAMPLES = 3;
const DEFINITION = '#/definitions/';

export function auditGenerators(entries: readonly AuditEntry[], definitions: Record<string, JsonSchema>, gen: GeneratorEmitter, schemas: AjvSchemas): string[] {
  const bodies = gen.sample(entries.map((e) => e.expression), SAMPLES);
  const failing = entries.flatMap((entry, i) => {
    const complaint = firstComplaint(schemas, entry.validatorId, bodies[i]!);
    return complaint === undefined ? [] : [{ entry, complaint, uses: reachable(entry.schema, definitions) }];
  });
  if (failing.length === 0) return [];

  const suspects = [...new Set(failing.flatMap((f) => f.uses))].filter((name) => gen.definitionCall(name, 'response') !== undefined);
  const values = gen.sample(suspects.map((name) => gen.definitionCall(name, 'response')!), SAMPLES);
  const broken = new Map<string, string>();
  suspects.forEach((name, i) => {
    const complaint = firstComplaint(schemas, `res${DEFINITION}${encodeURIComponent(name)}`, values[i]!);
    if (complaint !== undefined) broken.set(name, complaint);
  });
  // Name the innermost: a broken definition that uses another broken one fails because of it.
  const culprits = [...broken.keys()].filter((name) => !reachable({ $ref: DEFINITION + name }, definitions).some((used) => used !== name && broken.has(used)));

  const warnings = culprits.map((name) => {
    const example = failing.find((f) => f.uses.includes(name))!.entry.where;
    return `the generator finds no value the schema ${name} accepts (${broken.get(name)}), so answers that contain it (${example}) do not match their schema; the schema may admit no value`;
  });
  for (const { entry, complaint, uses } of failing) {
    if (uses.some((name) => culprits.includes(name))) continue;
    warnings.push(`${entry.where}: the generator finds no answer the response schema accepts (${complaint}); the schema may admit no value`);
  }
  return warnings;
}

/** The validator's first complaint about any of `values`, as `<schema path>: <message>`. */
function firstComplaint(schemas: AjvSchemas, id: string, values: readonly unknown[]): string | undefined {
  const validate = schemas.ajv.getSchema(id);
  if (!validate) return undefined;
  for (const value of values) if (!validate(value)) return describe(validate.errors?.[0]);
  return undefined;
}

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'invalid';
  const where = error.instancePath === '' ? '' : ` at ${error.instancePath}`;
  return `${error.schemaPath.replace(/^[^#]*#\/?/, '') || 'the root'}: ${error.message ?? error.keyword}${where}`;
}

/** Definitions `schema` uses, directly or through others (itself included when it is a reference). */
function reachable(schema: JsonSchema, definitions: Record<string, JsonSchema>): string[] {
  const found = new Set<string>();
  const visit = (node: unknown) =>
    walkSchema(node, (child) => {
      const ref = child.$ref;
      if (typeof ref !== 'string' || !ref.startsWith(DEFINITION)) return;
      const name = ref.slice(DEFINITION.length);
      if (found.has(name) || !Object.hasOwn(definitions, name)) return;
      found.add(name);
      visit(definitions[name]);
    });
  visit(schema);
  return [...found];
}
