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
 * The configuration of the scenario the project uses (docs/scenarios.md, "Merge rules"): its
 * config.yaml, plus its openapi.json as `specs` and its fixtures/ as `core.fixtures.dir` when it names
 * none, with every path made absolute within the scenario's folder. Undefined when none is in use.
 */
export function scenarioLayer(projectDir: string): (Layer & { scenario: string }) | undefined {
  const activeFile = path.join(projectDir, ACTIVE_SCENARIO_FILE);
  if (!existsSync(activeFile)) return undefined;
  const { name, dir } = JSON.parse(readFileSync(activeFile, 'utf8')) as { name: string; dir: string };
  const root = path.resolve(projectDir, dir);
  const shown = `scenario ${name}: config.yaml`;
  const file = path.join(root, 'config.yaml');
  if (!existsSync(file)) {
    throw new MockError('MOCK_ERR_SCENARIO_NOT_INSTALLED', `${ACTIVE_SCENARIO_FILE} names scenario ${name}, which is not installed in ${dir}; install it again or run mock scenario use --clear`);
  }
  const values = readConfigFile(file, shown);
  const tree: Tree = isTree(values) ? values : {};
  const inside = (location: unknown): unknown => (typeof location === 'string' && !/^[a-z]+:\/\//i.test(location) ? path.resolve(root, location) : location);
  if (tree.specs === undefined && existsSync(path.join(root, 'openapi.json'))) tree.specs = ['openapi.json'];
  if (Array.isArray(tree.specs)) tree.specs = tree.specs.map((spec) => (isTree(spec) ? { ...spec, path: inside(spec.path) } : inside(spec)));
  const core = (tree.core = isTree(tree.core) ? tree.core : {});
  const fixtures = (core.fixtures = isTree(core.fixtures) ? core.fixtures : {});
  if (fixtures.dir === undefined && statSync(path.join(root, 'fixtures'), { throwIfNoEntry: false })?.isDirectory()) fixtures.dir = 'fixtures';
  if (fixtures.dir !== undefined) fixtures.dir = inside(fixtures.dir);
  if (isTree(tree.grpc) && tree.grpc.proto_dir !== undefined) tree.grpc.proto_dir = inside(tree.grpc.proto_dir);
  if (isTree(tree.graphql) && tree.graphql.schema !== undefined) tree.graphql.schema = [tree.graphql.schema].flat().map(inside);
  if (Object.keys(fixtures).length === 0) delete core.fixtures;
  if (Object.keys(core).length === 0) delete tree.core;
  return {
    source: 'file',
    values: tree,
    name: (keyPath) => (keyPath.length > 0 ? `${shown}: ${formatKeyPath(keyPath)}` : shown),
    errorCode: 'MOCK_ERR_CONFIG_INVALID',
    scenario: name,
  };
}

/** Puts the scenario's entries of CONCATENATED_LISTS after the project's in the project's layer (checked values). */
export function concatenateLists(scenario: Tree, project: Tree): void {
  for (const keys of CONCATENATED_LISTS) {
    const theirs = at(scenario, keys);
    const ours = at(project, keys);
    if (!Array.isArray(theirs) || !Array.isArray(ours)) continue;
    let node = project;
    for (const key of keys.slice(0, -1)) node = node[key] as Tree;
    node[keys[keys.length - 1]] = [...ours, ...theirs];
  }
}

function at(tree: Tree, keys: readonly string[]): unknown {
  let node: unknown = tree;
  for (const key of keys) node = isTree(node) ? node[key] : undefined;
  return node;
}

/** The vbr_entities of the scenario in use (its scenario.yaml), for the entities stage; none without one. */
export function activeScenarioEntities(projectDir: string): Array<{ name: string; path?: string; seed_data?: Array<Record<string, unknown>> }> {
  const activeFile = path.join(projectDir, ACTIVE_SCENARIO_FILE);
  if (!existsSync(activeFile)) return [];
  const { dir } = JSON.parse(readFileSync(activeFile, 'utf8')) as { dir: string };
  const manifest = readConfigFile(path.join(path.resolve(projectDir, dir), 'scenario.yaml'), 'scenario.yaml');
  const entities = isTree(manifest) && Array.isArray(manifest.vbr_entities) ? manifest.vbr_entities : [];
  return entities.filter(isTree).map((e) => ({ name: String(e.name), path: typeof e.path === 'string' ? e.path : undefined, seed_data: Array.isArray(e.seed_data) ? e.seed_data : [] }));
}
