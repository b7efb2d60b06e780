import type { ValidateFunction } from 'ajv';
import { newAjv } from '../../../common/ajv.js';
import { boundSchema } from '../../../common/bounds.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../../common/json-depth.js';
import { fieldProblem } from '../../../common/http-fields.js';
import { describeInputError, show } from '../mocks/index.js';
import { PatternError, compileGlob } from '../../match/index.js';
import { compileMatchConditions } from './compiled-rule.js';
import type { OverrideRule } from './override-rule.js';

export type { OverrideRule } from './override-rule.js';

export type RuleSetResult = { ok: true; rules: OverrideRule[] } | { ok: false; error: string };

const EFFECTS = ['status', 'headers', 'body', 'merge', 'delay_ms'] as const;

const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
// each value is checked by the condition dialect, with a message naming it
const conditionMap = { type: 'object' };

const schema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    enabled: { type: 'boolean' },
    match: {
      type: 'object',
      additionalProperties: false,
      properties: {
        method: { type: 'string', minLength: 1 },
        path: { type: 'string' },
        query: conditionMap,
        headers: conditionMap,
        json_path: conditionMap,
        client_certificate: { type: 'object', additionalProperties: false, properties: { subject: {}, san: {}, fingerprint: {} } },
      },
    },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    headers: stringMap,
    body: {},
    merge: { type: 'object' },
    delay_ms: boundSchema('delayMs', true),
  },
};

// Compiled on first use (a server may never see a rule), then kept: rules arrive at startup or
// over the admin API, never on the request path.
let compiled: ValidateFunction<Partial<OverrideRule>> | undefined;
const validator = (): ValidateFunction<Partial<OverrideRule>> => (compiled ??= newAjv({ allErrors: false, verbose: true }).compile<Partial<OverrideRule>>(schema));

/**
 * Checks a whole rule set (an array, or `{rules: [...]}`) and fills defaults; the rules are fresh
 * copies. The error is one sentence naming the rule by index and name, and the field.
 */
export function readRuleSet(input: unknown): RuleSetResult {
  // before anything walks it: the checks, the copies and the merge patches recurse
  if (nestsDeeperThan(input, MAX_JSON_DEPTH)) return { ok: false, error: `override rules nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep; flatten their body and merge values` };
  const list = Array.isArray(input) ? input : isRulesObject(input) ? input.rules : undefined;
  if (list === undefined) return { ok: false, error: `override rules must be an array or an object {"rules": [...]} (got ${show(input)})` };
  const rules: OverrideRule[] = [];
  const seen = new Map<string, number>();
  for (const [index, given] of list.entries()) {
    const error = ruleError(given);
    const where = `rules[${index}]${hasName(given) ? ` (${show(given.name)})` : ''}`;
    if (error !== undefined) return { ok: false, error: `${where}: ${error}` };
    const rule = normalise(given as Partial<OverrideRule> & { name: string });
    const first = seen.get(rule.name);
    if (first !== undefined) return { ok: false, error: `${where}: the name is already used by rules[${first}]; rule names must be unique` };
    seen.set(rule.name, index);
    rules.push(rule);
  }
  return { ok: true, rules };
}

function ruleError(rule: unknown): string | undefined {
  const validate = validator();
  if (!validate(rule)) return describeInputError(validate.errors![0], 'the rule');
  for (const [name, value] of Object.entries(rule.headers ?? {})) {
    const problem = fieldProblem(name, value);
    if (problem !== undefined) return `headers ${show(name)} ${problem}`;
  }
  const path = rule.match?.path;
  if (path !== undefined && !path.startsWith('/')) return `match.path must start with / (got ${show(path)})`;
  if (path !== undefined) {
    try {
      compileGlob(path);
    } catch (e) {
      return `match.path ${show(path)}: the pattern ${(e as Error).message}`;
    }
  }
  if (rule.match !== undefined) {
    try {
      compileMatchConditions(rule.match);
    } catch (e) {
      if (e instanceof PatternError) return e.message;
      throw e;
    }
  }
  if (!EFFECTS.some((effect) => rule[effect] !== undefined)) return `the rule changes nothing; give it at least one of ${EFFECTS.join(', ')}`;
  return undefined;
}

function normalise(given: Partial<OverrideRule> & { name: string }): OverrideRule {
  const { name, enabled = true, match, ...effects } = structuredClone(given);
  const rule: OverrideRule = { name, enabled };
  if (match !== undefined) rule.match = match.method === undefined ? match : { ...match, method: match.method.toUpperCase() };
  return Object.assign(rule, effects);
}

function isRulesObject(input: unknown): input is { rules: unknown[] } {
  return input !== null && typeof input === 'object' && Object.keys(input).length === 1 && Array.isArray((input as { rules?: unknown }).rules);
}

function hasName(rule: unknown): rule is { name: string } {
  return rule !== null && typeof rule === 'object' && typeof (rule as { name?: unknown }).name === 'string';
}
