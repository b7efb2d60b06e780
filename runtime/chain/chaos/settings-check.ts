import type { RouteLatencyMeta } from '../../../common/contract/index.js';
import { checkBound, type BoundName } from '../../../common/bounds.js';
import { CHAOS_DEFINITIONS, validateChaosPatch, validateChaosProfile, validateRouteChaos } from '../../../common/chaos-schema.generated.js';
import { isMockError } from '../../../common/errors.js';
import { compileRequestMatcher, show } from '../../match/index.js';
import { checkLatencySpec } from './distributions.js';
import { checkErrorPattern } from './fault-pattern.js';
import { isObject } from './messages.js';
import { latencySpec } from './route-latency.js';

// Chaos settings, profiles and route chaos are checked by the definitions of mock.yaml's schema
// (src/config/schema.json), compiled by `npm run gen:config-types`; what they cannot say (rules
// across keys, patterns and CIDRs) is checked here after them.

type Schema = { [keyword: string]: any };
interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, any>;
}
type Validator = ((value: unknown) => boolean) & { errors?: SchemaError[] | null };

const ROOT: Schema = { definitions: CHAOS_DEFINITIONS };

/** A node with its `$ref` followed (the node's own keywords win), and the x-bound definition giving its range. */
function resolve(node: Schema): { schema: Schema; bound?: BoundName } {
  if (node.$ref === undefined) return { schema: node };
  const { $ref, ...own } = node as { $ref: string };
  const target = $ref.slice(2).split('/').reduce((at: Schema, key) => at[key], ROOT);
  const inner = resolve(target);
  const bound = inner.bound ?? (target['x-bound'] === true ? ($ref.split('/').pop() as BoundName) : undefined);
  return { schema: { ...inner.schema, ...own }, bound };
}

/** The schema of `key` inside a value of `node` (a discriminated union: the branch the value's tag picks). */
function child(node: Schema, value: unknown, key: string): Schema | undefined {
  const { schema } = resolve(node);
  if (schema.properties !== undefined) return Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
  if (schema.items !== undefined) return schema.items;
  const tag = schema.discriminator?.propertyName;
  if (tag === undefined || !isObject(value)) return undefined;
  return (schema.oneOf as Schema[]).find((branch) => branch.properties[tag].const === value[tag])?.properties?.[key];
}

/** `a whole number from 1 to 5`, `a number above 0 and at most 3600000`, `a whole number >= 0`. */
function range(schema: Schema): string {
  const kind = schema.type === 'integer' ? 'a whole number' : 'a number';
  const { minimum, exclusiveMinimum, maximum } = schema;
  if (exclusiveMinimum !== undefined) return maximum === undefined ? `${kind} above ${exclusiveMinimum}` : `${kind} above ${exclusiveMinimum} and at most ${maximum}`;
  if (minimum !== undefined) return maximum === undefined ? `${kind} >= ${minimum}` : `${kind} from ${minimum} to ${maximum}`;
  return maximum === undefined ? kind : `${kind} <= ${maximum}`;
}

function expectation(schema: Schema): string {
  if (schema['x-expected'] !== undefined) return schema['x-expected'];
  if (schema.enum !== undefined) return `one of ${schema.enum.join(', ')}`;
  switch (schema.type) {
    case 'boolean':
      return 'true or false';
    case 'string':
      return schema.minLength > 0 ? 'a non-empty string' : 'a string';
    case 'array':
      return resolve(schema.items ?? {}).schema.type === 'string' ? 'a list of strings' : 'a list';
    case 'integer':
    case 'number':
      return range(schema);
    default:
      return 'an object';
  }
}

/** `expected …, got …`: a bounded value as every bound says it (common/bounds.ts). */
function expected(node: Schema | undefined, value: unknown): string {
  const { schema, bound } = resolve(node ?? {});
  const problem = bound === undefined || value === undefined ? undefined : checkBound(bound, value, schema.type === 'integer');
  return problem ?? `expected ${expectation(schema)}${value === undefined ? '' : `, got ${show(value)}`}`;
}

/** `where.a.b[0].c`; the value itself is `the body` when `where` is empty. */
function keyOf(where: string, path: ReadonlyArray<string | number>): string {
  const key = path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('');
  if (where !== '') return `${where}${key}`;
  return key === '' ? 'the body' : key.replace(/^\./, '');
}

/** One line per key that breaks the schema, naming it (below `where`); empty when none. */
function schemaProblems(validate: Validator, root: Schema, value: unknown, where: string): string[] {
  if (validate(value)) return [];
  const lines = new Map<string, string>();
  for (const error of validate.errors ?? []) {
    let node: Schema | undefined = root;
    let data = value;
    const path: Array<string | number> = [];
    for (const raw of error.instancePath.split('/').slice(1)) {
      const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
      node = node === undefined ? undefined : child(node, data, key);
      path.push(Array.isArray(data) ? Number(key) : key);
      data = (data as Record<string, unknown>)[key];
    }
    const { keyword, params } = error;
    const at = (key: string): string => keyOf(where, [...path, key]);
    if (keyword === 'additionalProperties') {
      const known = Object.keys(resolve(node ?? {}).schema.properties ?? {});
      lines.set(at(params.additionalProperty), `${at(params.additionalProperty)}: unknown setting (expected one of ${known.join(', ')})`);
    } else if (keyword === 'required') {
      const key = params.missingProperty as string;
      if (!lines.has(at(key))) lines.set(at(key), `${at(key)}: ${expected(node === undefined ? undefined : child(node, data, key), undefined)}`);
    } else if (keyword === 'discriminator') {
      const { tag, tagValue } = params as { tag: string; tagValue: unknown };
      const kinds = (resolve(node ?? {}).schema.oneOf as Schema[]).map((branch) => branch.properties[tag].const);
      lines.set(at(tag), `${at(tag)}: ${expected({ enum: kinds }, tagValue)}`);
    } else if (!lines.has(keyOf(where, path))) {
      lines.set(keyOf(where, path), `${keyOf(where, path)}: ${expected(node, data)}`);
    }
  }
  return [...lines.values()];
}

const join = (where: string, key: string): string => (where === '' ? key : `${where}.${key}`);

/** fault_injection beyond its schema: the error pattern's type-dependent keys, the request matcher's patterns and CIDRs. */
function faultRules(faults: Record<string, unknown> | undefined, where: string): string[] {
  if (faults === undefined) return [];
  const problems = faults.error_pattern === undefined ? [] : checkErrorPattern(faults.error_pattern, `${where}.error_pattern`);
  if (faults.request_matcher !== undefined) {
    try {
      compileRequestMatcher(faults.request_matcher as Parameters<typeof compileRequestMatcher>[0], `${where}.request_matcher`);
    } catch (e) {
      if (!isMockError(e)) throw e;
      problems.push(e.message);
    }
  }
  return problems;
}

/**
 * What is wrong with a chaos patch (mock.yaml's observability.chaos, or a Chaos API body): one
 * line per problem, naming the key (`observability.chaos.rate_limit.burst_size: …`); empty when fine.
 */
export function checkChaosPatch(patch: unknown, where: string): string[] {
  const problems = schemaProblems(validateChaosPatch as Validator, { $ref: '#/definitions/chaos' }, patch, where);
  return problems.length > 0 ? problems : faultRules((patch as { fault_injection?: Record<string, unknown> }).fault_injection, `${where}.fault_injection`);
}

/**
 * What is wrong with a chaos profile document ({name, description, tags, chaos_config}: mock.yaml's
 * observability.chaos.profiles, or a Chaos API body), one line per problem naming the key below
 * `where` (which may be empty); empty when fine.
 */
export function checkProfile(profile: unknown, where: string): string[] {
  const problems = schemaProblems(validateChaosProfile as Validator, { $ref: '#/definitions/chaosProfile' }, profile, where);
  if (problems.length > 0) return problems;
  const config = (profile as { chaos_config: { fault_injection?: Record<string, unknown> } }).chaos_config;
  return faultRules(config.fault_injection, join(where, 'chaos_config.fault_injection'));
}

/**
 * What is wrong with a route's chaos ({latency?, fault_injection?}: core.routes[] in mock.yaml, or
 * a /__mock/api/route-chaos body), one line per problem naming the key below `where` (which may be
 * empty); empty when fine.
 */
export function checkRouteChaos(chaos: { latency?: unknown; fault_injection?: unknown }, where: string): string[] {
  const problems = schemaProblems(validateRouteChaos as Validator, { $ref: '#/definitions/routeChaosPatch' }, chaos, where);
  if (problems.length > 0 || chaos.latency === undefined) return problems;
  // the parameters a distribution needs, and p99_ms >= p50_ms
  return checkLatencySpec(latencySpec(chaos.latency as RouteLatencyMeta), join(where, 'latency'));
}
