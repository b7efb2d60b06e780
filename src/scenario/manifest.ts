import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { parse } from 'yaml';
import { SCENARIO_NAME } from '../../common/scenario-name.js';

/** One stateful resource a scenario brings: served as a collection at `/<name>` (see docs/scenarios.md). */
export interface VbrEntity {
  name: string;
  /** Where the collection is served; default `/<name>`. */
  path?: string;
  /** JSON Schema of one item; `id` is its key. */
  schema?: Record<string, unknown>;
  seed_data?: Array<Record<string, unknown>>;
}

/** scenario.yaml: what the spec's "Scenario package" names. */
export interface ScenarioManifest {
  name: string;
  version: string;
  description: string;
  author: string;
  category: string;
  tags: string[];
  /** `name` or `name@range`, installed before the scenario. */
  dependencies: string[];
  vbr_entities?: VbrEntity[];
  /** The operations whose answers a model writes while the scenario is in use and ai.enabled (docs/ai.md). */
  mockai_rules?: Array<{ endpoint: string; rules: unknown }>;
}

export const MANIFEST_FILE = 'scenario.yaml';

const ENTITY_NAME = /^[a-z][a-z0-9_-]*$/;

/** Checks a parsed scenario.yaml; answers one line per problem, `scenario.yaml: <key>: <what to do>`. */
export function checkManifest(value: unknown): string[] {
  const problems: string[] = [];
  const at = (key: string, text: string): void => void problems.push(`${MANIFEST_FILE}: ${key}: ${text}`);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${MANIFEST_FILE}: must be a mapping of name, version, description, author, category, tags, dependencies`];
  const m = value as Record<string, unknown>;
  const text = (key: string, pattern?: RegExp, hint?: string): void => {
    const v = m[key];
    if (typeof v !== 'string' || v.trim() === '') at(key, `is required: a non-empty string${hint ? ` (${hint})` : ''}`);
    else if (pattern && !pattern.test(v)) at(key, `'${v}' is not valid: ${hint}`);
  };
  text('name', SCENARIO_NAME, 'lower case letters, digits, - . _ ~, optionally @scope/, as an npm package name');
  if (typeof m.version !== 'string' || semver.valid(m.version) === null) at('version', `${JSON.stringify(m.version ?? null)} is not a semantic version; write one such as 1.0.0`);
  text('description');
  text('author');
  text('category');
  const list = (key: string, item: (entry: unknown, i: number) => void): void => {
    const v = m[key];
    if (v === undefined) return;
    if (!Array.isArray(v)) return at(key, 'must be a list');
    v.forEach(item);
  };
  if (!Array.isArray(m.tags)) at('tags', 'is required: a list of strings (may be empty)');
  list('tags', (tag, i) => typeof tag === 'string' || at(`tags[${i}]`, 'must be a string'));
  if (!Array.isArray(m.dependencies)) at('dependencies', 'is required: a list of `name` or `name@range` (may be empty)');
  list('dependencies', (dep, i) => {
    const { name, range } = typeof dep === 'string' ? splitSpec(dep) : { name: '', range: '' };
    if (!SCENARIO_NAME.test(name) || semver.validRange(range) === null)
      at(`dependencies[${i}]`, `${JSON.stringify(dep)} must be a scenario name with an optional semver range, such as base-auth@^1.2.0`);
  });
  list('vbr_entities', (entity, i) => {
    const e = (entity ?? {}) as Record<string, unknown>;
    if (typeof e.name !== 'string' || !ENTITY_NAME.test(e.name)) at(`vbr_entities[${i}].name`, 'is required: lower case letters, digits, - and _ (it becomes the path /<name>)');
    if (e.path !== undefined && (typeof e.path !== 'string' || !/^\/[^?#]*[^/?#]$/.test(e.path)))
      at(`vbr_entities[${i}].path`, 'must be a path such as /api/customers (where the collection is served)');
    if (e.schema !== undefined && (typeof e.schema !== 'object' || e.schema === null || Array.isArray(e.schema))) at(`vbr_entities[${i}].schema`, 'must be a JSON Schema object');
    if (e.seed_data !== undefined && (!Array.isArray(e.seed_data) || e.seed_data.some((row) => typeof row !== 'object' || row === null || Array.isArray(row)))) {
      at(`vbr_entities[${i}].seed_data`, 'must be a list of objects');
    } else
      (e.seed_data as Array<Record<string, unknown>> | undefined)?.forEach((row, j) => {
        if (typeof row.id !== 'string' && typeof row.id !== 'number') at(`vbr_entities[${i}].seed_data[${j}].id`, 'is required: a string or number, the key of the item');
      });
  });
  list('mockai_rules', (rule, i) => {
    const r = (rule ?? {}) as Record<string, unknown>;
    if (typeof r.endpoint !== 'string') at(`mockai_rules[${i}].endpoint`, 'is required: a string');
    if (r.rules === undefined) at(`mockai_rules[${i}].rules`, 'is required');
  });
  return problems;
}

/** `name@range` or `@scope/name@range` → its parts (range `*` when absent). */
export function splitSpec(spec: string): { name: string; range: string } {
  const at = spec.indexOf('@', 1);
  return at === -1 ? { name: spec, range: '*' } : { name: spec.slice(0, at), range: spec.slice(at + 1) || '*' };
}

/** Reads scenario.yaml of a scenario folder; throws a one-line message naming the file when it is not YAML. */
export function readManifestFile(dir: string): unknown {
  const file = path.join(dir, MANIFEST_FILE);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`${MANIFEST_FILE}: missing; a scenario folder starts with a scenario.yaml naming it (see docs/scenarios.md)`);
  }
  try {
    return parse(source);
  } catch (error) {
    throw new Error(`${MANIFEST_FILE}: invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}
