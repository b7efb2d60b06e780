import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { MockError } from '../../common/errors.js';
import { readLock, type LockedScenario } from './lock.js';
import { readManifestFile, splitSpec, type ScenarioManifest } from './manifest.js';
import { scenarioDir, type ScenarioHome } from './project.js';

export interface LocalScenario extends LockedScenario {
  name: string;
  dir: string;
  manifest: ScenarioManifest;
  /** The one `mock serve` merges in (mock scenario use). */
  active: boolean;
}

/** The scenarios installed in the project, by name. */
export function listLocal(home: ScenarioHome): LocalScenario[] {
  const active = activeScenario(home);
  return Object.entries(readLock(home).scenarios)
    .filter(([name]) => existsSync(scenarioDir(home, name)))
    .map(([name, locked]) => ({ ...locked, name, dir: scenarioDir(home, name), manifest: readManifestFile(scenarioDir(home, name)) as ScenarioManifest, active: active === name }));
}

export function localScenario(home: ScenarioHome, name: string): LocalScenario {
  const found = listLocal(home).find((scenario) => scenario.name === name);
  if (!found) throw notInstalled(home, name);
  return found;
}

/** Makes `mock serve` (and every command reading mock.yaml) merge the scenario under the project's mock.yaml. */
export function useScenario(home: ScenarioHome, name: string): LocalScenario {
  const scenario = localScenario(home, name);
  mkdirSync(path.dirname(home.active), { recursive: true });
  const relative = (dir: string): string => path.relative(home.project, dir).split(path.sep).join('/');
  const layers = withDependencies(home, name).map((s) => ({ name: s.name, dir: relative(s.dir) }));
  writeFileAtomic.sync(home.active, `${JSON.stringify({ name, version: scenario.version, dir: relative(scenario.dir), layers }, null, 2)}\n`);
  return { ...scenario, active: true };
}

/** The scenario and what it depends on, installed, each after its own dependencies (the order their configurations merge in). */
function withDependencies(home: ScenarioHome, name: string): LocalScenario[] {
  const installed = new Map(listLocal(home).map((s) => [s.name, s]));
  const order: LocalScenario[] = [];
  const visit = (wanted: string, from: string): void => {
    if (order.some((s) => s.name === wanted)) return;
    const scenario = installed.get(wanted);
    if (!scenario) throw new MockError('MOCK_ERR_SCENARIO_NOT_INSTALLED', `${wanted}: ${from} depends on it, and it is not installed; mock scenario install ${from} --force installs it`);
    // install refuses cycles; a lock edited by hand must not loop here
    order.push(scenario);
    for (const dependency of scenario.dependencies) visit(splitSpec(dependency).name, wanted);
    order.push(order.splice(order.indexOf(scenario), 1)[0]);
  };
  visit(name, name);
  return order;
}

/** Stops merging a scenario in; answers the name it was. */
export function clearActive(home: ScenarioHome): string | undefined {
  const name = activeScenario(home);
  rmSync(home.active, { force: true });
  return name;
}

function activeScenario(home: ScenarioHome): string | undefined {
  if (!existsSync(home.active)) return undefined;
  return (JSON.parse(readFileSync(home.active, 'utf8')) as { name: string }).name;
}

const notInstalled = (home: ScenarioHome, name: string): MockError =>
  new MockError(
    'MOCK_ERR_SCENARIO_NOT_INSTALLED',
    `${name}: not installed in ${path.relative(process.cwd(), home.root) || home.root}; mock scenario list shows what is, mock scenario install ${name} installs it`,
  );
