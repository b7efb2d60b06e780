import path from 'node:path';
import { findConfigFile, loadConfig } from '../config/index.js';

/** Where a project keeps its scenarios: `.mock/scenarios/` beside its mock.yaml (else in cwd). */
export interface ScenarioHome {
  /** The project folder. */
  project: string;
  /** `.mock/scenarios`: one folder per installed scenario (`@scope/name` nests, as in node_modules). */
  root: string;
  /** `.mock/scenarios/scenarios-lock.json`. */
  lock: string;
  /** `.mock/active-scenario.json`: which scenario `mock serve` merges under mock.yaml. */
  active: string;
}

export function scenarioHome(cwd = process.cwd(), configPath?: string, env: Readonly<Record<string, string | undefined>> = process.env): ScenarioHome {
  const file = findConfigFile(cwd, env, configPath);
  const project = file ? path.dirname(file.file) : path.resolve(cwd);
  const root = path.join(project, '.mock', 'scenarios');
  return { project, root, lock: path.join(root, 'scenarios-lock.json'), active: path.join(project, '.mock', 'active-scenario.json') };
}

/** The folder of an installed scenario. */
export const scenarioDir = (home: ScenarioHome, name: string): string => path.join(home.root, ...name.split('/'));

/** The registry to use: --registry, else scenarios.registry of mock.yaml (or MOCK_SCENARIO_REGISTRY); undefined leaves it to .npmrc. */
export function registryOf(flag: string | undefined, cwd = process.cwd(), configPath?: string): string | undefined {
  return flag ?? loadConfig({ cwd, configPath }).config.scenarios?.registry;
}
