import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import { readConfigFile } from './file.js';
import { formatKeyPath } from './key-path.js';
import type { Layer } from './layer.js';
import { isTree, type Tree } from './tree.js';

/** The file `mock scenario use` writes: which installed scenario the project serves under its mock.yaml. */
export const ACTIVE_SCENARIO_FILE = path.join('.mock', 'active-scenario.json');

/** Lists a scenario and the project both add to: the project's entries first, then the scenario's. */
export const CONCATENATED_LISTS = [['specs'], ['http', 'routes'], ['core', 'stateful', 'state_machines']] as const;

/**
 * What a scenario's config.yaml may set: how its API is described and answered. The project's own
 * surfaces (ports, admin, auth, logging, storage, build, proxy targets, metrics, recorder, AI) stay
 * the project's: a downloaded package chooses no address, sends no request elsewhere and records nothing.
 */
export const SCENARIO_CONFIG_KEYS = ['specs', 'validation', 'response_template_expand', 'response', 'http', 'seed', 'now', 'core', 'grpc', 'websocket', 'graphql', 'chaos', 'time_travel'];

/** The keys of a scenario's config.yaml that name files: each must stay inside the scenario's folder. */
function pathsOf(tree: Tree): Array<[key: string, location: unknown, set: (value: string) => void]> {
  const found: Array<[string, unknown, (value: string) => void]> = [];
  const at = (node: unknown, key: string, label: string): void => {
    if (isTree(node) && node[key] !== undefined) found.push([label, node[key], (value) => (node[key] = value)]);
  };
  if (Array.isArray(tree.specs)) {
    tree.specs.forEach((spec, i) => {
      if (isTree(spec)) at(spec, 'path', `specs[${i}].path`);
      else found.push([`specs[${i}]`, spec, (value) => ((tree.specs as unknown[])[i] = value)]);
    });
  }
  const core = isTree(tree.core) ? tree.core : undefined;
  at(core?.fixtures, 'dir', 'core.fixtures.dir');
  at(tree.grpc, 'proto_dir', 'grpc.proto_dir');
  const graphql = isTree(tree.graphql) ? tree.graphql : undefined;
  if (graphql?.schema !== undefined) {
    const schemas = [graphql.schema].flat();
    graphql.schema = schemas;
    schemas.forEach((schema, i) => found.push([`graphql.schema[${i}]`, schema, (value) => (schemas[i] = value)]));
  }
  const websocket = isTree(tree.websocket) ? tree.websocket : undefined;
  at(websocket, 'replay_file', 'websocket.replay_file');
  if (Array.isArray(websocket?.routes)) websocket.routes.forEach((route, i) => at(route, 'script', `websocket.routes[${i}].script`));
  at(isTree(tree.http) ? tree.http.overrides : undefined, 'glob', 'http.overrides.glob');
  return found;
}

/** What a scenario's config.yaml may not do, one line each (`config.yaml: <key>: …`), before the schema's own checks. */
export function scenarioConfigProblems(tree: Tree): string[] {
  const problems = Object.keys(tree)
    .filter((key) => !SCENARIO_CONFIG_KEYS.includes(key))
    .map((key) => `config.yaml: ${key}: a scenario cannot set the project's ${key} settings; remove it (a scenario may set ${SCENARIO_CONFIG_KEYS.join(', ')})`);
  const fixtures = isTree(tree.core) && isTree(tree.core.fixtures) ? tree.core.fixtures : undefined;
  if (fixtures?.record_enabled === true) problems.push('config.yaml: core.fixtures.record_enabled: a scenario cannot record; remove it (the project records with mock serve --record)');
  for (const [key, location] of pathsOf(structuredClone(tree))) {
    const outside = typeof location !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(location) || path.isAbsolute(location) || path.normalize(location).split(/[\\/]/)[0] === '..';
    if (outside) problems.push(`config.yaml: ${key}: ${JSON.stringify(location)} is outside the scenario; name a file inside the scenario folder by a relative path`);
  }
  return problems;
}

/**
 * The configuration of the scenario the project uses (docs/scenarios.md, "Merge rules"): its
 * config.yaml (and its dependencies'), plus its openapi.json as `specs` and its fixtures/ as `core.fixtures.dir` when it names
 * none, with every path made absolute within the scenario's folder. Undefined when none is in use.
 * What a scenario may not set is refused here too, so that one installed with --skip-validation
 * cannot reach the project's surfaces either.
 */
export function scenarioLayers(projectDir: string): Layer[] {
  return activeLayers(projectDir).map(({ name, dir }) => scenarioLayer(projectDir, name, dir));
}

/** What mock serve says it serves: `crm@1.0.0 (with base-auth)`, or undefined when no scenario is in use. */
export function activeScenarioSummary(projectDir: string): string | undefined {
  const activeFile = path.join(projectDir, ACTIVE_SCENARIO_FILE);
  if (!existsSync(activeFile)) return undefined;
  const { name, version } = JSON.parse(readFileSync(activeFile, 'utf8')) as { name: string; version: string };
  const dependencies = activeLayers(projectDir)
    .map((layer) => layer.name)
    .filter((layer) => layer !== name);
  return `${name}@${version}${dependencies.length > 0 ? ` (with ${dependencies.join(', ')})` : ''}`;
}

/**
 * The scenarios .mock/active-scenario.json names, lowest first: the dependencies of the one in use
 * (each after its own), then that one. Empty when none is in use.
 */
function activeLayers(projectDir: string): Array<{ name: string; dir: string }> {
  const activeFile = path.join(projectDir, ACTIVE_SCENARIO_FILE);
  if (!existsSync(activeFile)) return [];
  const active = JSON.parse(readFileSync(activeFile, 'utf8')) as { name: string; dir: string; layers?: Array<{ name: string; dir: string }> };
  return active.layers ?? [{ name: active.name, dir: active.dir }];
}

function scenarioLayer(projectDir: string, name: string, dir: string): Layer {
  const root = path.resolve(projectDir, dir);
  const shown = `scenario ${name}: config.yaml`;
  const file = path.join(root, 'config.yaml');
  if (!existsSync(file)) {
    throw new MockError('MOCK_ERR_SCENARIO_NOT_INSTALLED', `${ACTIVE_SCENARIO_FILE} names scenario ${name}, which is not installed in ${dir}; install it again or run mock scenario use --clear`);
  }
  const values = readConfigFile(file, shown);
  const tree: Tree = isTree(values) ? values : {};
  const [problem] = scenarioConfigProblems(tree);
  if (problem !== undefined) throw new MockError('MOCK_ERR_SCENARIO_INVALID', `scenario ${name}: ${problem}; or run mock scenario use --clear`);
  if (tree.specs === undefined && existsSync(path.join(root, 'openapi.json'))) tree.specs = ['openapi.json'];
  const core = (tree.core = isTree(tree.core) ? tree.core : {});
  const fixtures = (core.fixtures = isTree(core.fixtures) ? core.fixtures : {});
  if (fixtures.dir === undefined && statSync(path.join(root, 'fixtures'), { throwIfNoEntry: false })?.isDirectory()) fixtures.dir = 'fixtures';
  if (Object.keys(fixtures).length === 0) delete core.fixtures;
  if (Object.keys(core).length === 0) delete tree.core;
  for (const [, location, set] of pathsOf(tree)) set(path.resolve(root, location as string));
  return {
    source: 'file',
    values: tree,
    name: (keyPath) => (keyPath.length > 0 ? `${shown}: ${formatKeyPath(keyPath)}` : shown),
    errorCode: 'MOCK_ERR_CONFIG_INVALID',
  };
}

/**
 * For each of CONCATENATED_LISTS, the entries of every layer that sets it, highest first (the
 * project's, then the scenario's, then its dependencies'), given to the highest of them: the one
 * the merge keeps. `layers`: checked values, lowest first.
 */
export function concatenateLists(layers: readonly Tree[]): void {
  for (const keys of CONCATENATED_LISTS) {
    const setting = layers.filter((layer) => Array.isArray(at(layer, keys)));
    if (setting.length < 2) continue;
    const combined = setting
      .slice()
      .reverse()
      .flatMap((layer) => at(layer, keys) as unknown[]);
    let node = setting[setting.length - 1];
    for (const key of keys.slice(0, -1)) node = node[key] as Tree;
    node[keys[keys.length - 1]] = combined;
  }
}

function at(tree: Tree, keys: readonly string[]): unknown {
  let node: unknown = tree;
  for (const key of keys) node = isTree(node) ? node[key] : undefined;
  return node;
}

/** The vbr_entities of the scenario in use and its dependencies (its own win by name), for the entities stage; none without one. */
export function activeScenarioEntities(projectDir: string): Array<{ name: string; path?: string; schema?: Record<string, unknown>; seed_data?: Array<Record<string, unknown>> }> {
  const byName = new Map<string, { name: string; path?: string; schema?: Record<string, unknown>; seed_data?: Array<Record<string, unknown>> }>();
  for (const { dir } of activeLayers(projectDir)) {
    const manifest = readConfigFile(path.join(path.resolve(projectDir, dir), 'scenario.yaml'), 'scenario.yaml');
    const entities = isTree(manifest) && Array.isArray(manifest.vbr_entities) ? manifest.vbr_entities : [];
    for (const e of entities.filter(isTree)) {
      byName.set(String(e.name), {
        name: String(e.name),
        path: typeof e.path === 'string' ? e.path : undefined,
        schema: isTree(e.schema) ? e.schema : undefined,
        seed_data: Array.isArray(e.seed_data) ? e.seed_data : [],
      });
    }
  }
  return [...byName.values()];
}

/** The mockai_rules of the scenario in use and its dependencies, lowest first (docs/ai.md); none without one. */
export function activeScenarioAiRules(projectDir: string): Array<{ endpoint: string; rules: unknown; from: string }> {
  return activeLayers(projectDir).flatMap(({ name, dir }) => {
    const manifest = readConfigFile(path.join(path.resolve(projectDir, dir), 'scenario.yaml'), 'scenario.yaml');
    const rules = isTree(manifest) && Array.isArray(manifest.mockai_rules) ? manifest.mockai_rules : [];
    return rules.filter(isTree).flatMap((rule, i) => (typeof rule.endpoint === 'string' ? [{ endpoint: rule.endpoint, rules: rule.rules, from: `scenario ${name}: mockai_rules[${i}]` }] : []));
  });
}
