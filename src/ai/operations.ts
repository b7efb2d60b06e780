import type { Ir, IrOperation, JsonSchema } from '../../compiler/index.js';
import type { AiOperation } from '../../runtime/index.js';

/** A rule as mock.yaml's ai.rules and scenario.yaml's mockai_rules write it, with where it was written. */
export interface AiRuleEntry {
  endpoint: string;
  rules: unknown;
  from: string;
}

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json$/i;

/**
 * The operations the model answers, by route key: those a rule names (`METHOD /path` or `/path`,
 * the path as written or as mounted), or every operation with `all`; only operations documenting
 * a JSON success response with a schema. `warn` hears each rule that names none.
 */
export function aiOperations(ir: Ir, rules: readonly AiRuleEntry[], all: boolean, warn: (line: string) => void): Record<string, AiOperation> {
  const covered = new Map<IrOperation, string[]>();
  if (all) for (const op of ir.operations) covered.set(op, []);
  for (const rule of rules) {
    const matched = ir.operations.filter((op) => names(rule.endpoint, op));
    if (matched.length === 0)
      warn(`ai: ${rule.from}: ${JSON.stringify(rule.endpoint)} names no operation of the descriptions; write METHOD /path as the description writes it, such as GET /pets/{petId}`);
    for (const op of matched) covered.set(op, [...(covered.get(op) ?? []), ...ruleLines(rule.rules)]);
  }
  const operations: Record<string, AiOperation> = {};
  for (const [op, lines] of covered) {
    const answer = documentedAnswer(ir, op);
    if (answer === undefined) {
      if (lines.length > 0) warn(`ai: ${op.key} documents no JSON success response with a schema; the generator answers it`);
      continue;
    }
    operations[op.key] = { key: op.key, ...answer, rules: lines };
  }
  return operations;
}

function names(endpoint: string, op: IrOperation): boolean {
  const space = endpoint.indexOf(' ');
  const method = space === -1 ? undefined : endpoint.slice(0, space).toUpperCase();
  const path = (space === -1 ? endpoint : endpoint.slice(space + 1)).trim();
  return (method === undefined || method === op.method) && (path === op.path || path === op.specPath);
}

/** A rule's text lines: a string, a list of strings, anything else as JSON. */
function ruleLines(rules: unknown): string[] {
  if (typeof rules === 'string') return [rules];
  if (Array.isArray(rules)) return rules.map((rule) => (typeof rule === 'string' ? rule : JSON.stringify(rule)));
  return rules === undefined || rules === null ? [] : [JSON.stringify(rules)];
}

/** The first documented 2xx response with a JSON body and a schema: its status, media type and the schema with the definitions it reaches. */
function documentedAnswer(ir: Ir, op: IrOperation): Pick<AiOperation, 'status' | 'contentType' | 'schema'> | undefined {
  for (const response of op.responses) {
    const status = /^2\d\d$/.test(response.status) ? Number(response.status) : response.status.toUpperCase() === '2XX' ? 200 : undefined;
    if (status === undefined) continue;
    const content = response.contents.find((c) => JSON_TYPE.test(c.mediaType) && c.schema !== undefined);
    if (content?.schema === undefined) continue;
    const definitions = reachedDefinitions(ir, content.schema);
    return { status, contentType: content.mediaType, schema: Object.keys(definitions).length === 0 ? content.schema : { ...content.schema, definitions } };
  }
  return undefined;
}

/** The IR's definitions a schema refers to (`#/definitions/<Name>`), directly or through each other. */
function reachedDefinitions(ir: Ir, schema: JsonSchema): Record<string, JsonSchema> {
  const found: Record<string, JsonSchema> = {};
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/definitions/')) {
          const name = value.slice('#/definitions/'.length);
          if (!Object.hasOwn(found, name) && Object.hasOwn(ir.definitions, name)) {
            found[name] = ir.definitions[name];
            pending.push(found[name]);
          }
        } else pending.push(value);
      }
    }
  }
  return found;
}
