import type { ErrorObject } from 'ajv';
import { type AjvSchemas, type Ir, type IrOperation, type JsonSchema, mapSchema, registerSchemas } from '../../compiler/index.js';

export type Check = (value: unknown) => string | undefined;

/** A validator function as Ajv compiles it, or as a build's validators.js exports it. */
export type ValidateFn = ((data: unknown) => boolean) & { errors?: Array<Pick<ErrorObject, 'instancePath' | 'keyword' | 'message' | 'params'>> | null };

/**
 * The description's own validators (the ones `mock build` emits), compiled on first use: the
 * probes use them to know that a "valid" request is valid and that a mutation really breaks it,
 * and to check response bodies. With `prebuilt` (the self-test's build, same IR, same ids) the
 * build's standalone functions are used instead of compiling the schemas a second time.
 */
export class Validators {
  private readonly schemas: AjvSchemas;
  private readonly compiled = new Map<string, Check>();
  private readonly params = new WeakMap<JsonSchema, Check>();

  constructor(
    ir: Ir,
    private readonly prebuilt?: Record<string, ValidateFn>,
  ) {
    this.schemas = registerSchemas(ir);
  }

  /** The request body validator of content `ci`, when the build validates that media type. */
  body(op: IrOperation, ci: number): Check | undefined {
    return this.byId(this.schemas.ids[op.index]?.bodies[ci]);
  }

  /** The validator of response `ri`, content `ci` (JSON bodies only). */
  response(op: IrOperation, ri: number, ci: number): Check | undefined {
    return this.byId(this.schemas.ids[op.index]?.responses[ri]?.[ci]);
  }

  /** The item validator of a sequential request body (JSON Lines, json-seq). */
  bodyItem(op: IrOperation, ci: number): Check | undefined {
    return this.byId(this.schemas.ids[op.index]?.bodyItems[ci]);
  }

  /** The item validator of a sequential response (`itemSchema`, or what its schema says of one item). */
  responseItem(op: IrOperation, ri: number, ci: number): Check | undefined {
    return this.byId(this.schemas.ids[op.index]?.responseItems[ri]?.[ci]);
  }

  /** A single parameter's schema (values as typed, before serialisation). */
  param(schema: JsonSchema): Check {
    let check = this.params.get(schema);
    if (check === undefined) {
      const rebased = mapSchema(schema, (node) =>
        typeof node.$ref === 'string' && node.$ref.startsWith('#/definitions/') ? { ...node, $ref: `req${node.$ref}` } : node,
      );
      check = wrap(this.schemas.ajv.compile(rebased));
      this.params.set(schema, check);
    }
    return check;
  }

  private byId(id: string | undefined): Check | undefined {
    if (id === undefined) return undefined;
    let check = this.compiled.get(id);
    if (check === undefined) {
      const validate: ValidateFn | undefined = this.prebuilt?.[id] ?? this.schemas.ajv.getSchema(id);
      if (validate === undefined) return undefined;
      check = wrap(validate);
      this.compiled.set(id, check);
    }
    return check;
  }
}

/** Undefined when valid, else the first errors in one line. */
function wrap(validate: ValidateFn): Check {
  return (value) => (validate(value) ? undefined : describeErrors(validate.errors ?? []));
}

export function describeErrors(errors: NonNullable<ValidateFn['errors']>, max = 3): string {
  const parts = errors.slice(0, max).map((e) => {
    const where = e.instancePath === '' ? 'body' : e.instancePath;
    if (e.keyword === 'additionalProperties') return `${where} must not have property '${String(e.params.additionalProperty)}'`;
    if (e.keyword === 'required') return `${where} must have property '${String(e.params.missingProperty)}'`;
    return `${where} ${e.message ?? `fails ${e.keyword}`}`;
  });
  return parts.join('; ') + (errors.length > max ? ` (+${errors.length - max} more)` : '');
}
