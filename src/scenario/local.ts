import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { MockError } from '../../common/errors.js';
import { readLock, type LockedScenario } from './lock.js';
import { readManifestFile, type ScenarioManifest } from './manifest.js';
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
  const dir = path.relative(home.project, scenario.dir).split(path.sep).join('/');
  writeFileAtomic.sync(home.active, `${JSON.stringify({ name, version: scenario.version, dir }, null, 2)}\n`);
  return { ...scenario, active: true };
}

/** Stops merging a scenario in; answers the name it was. */
export function clearActive(home: ScenarioHome): string | undefined {
  const name = activeScenario(home);
  rmSync(home.active, { force: true });
  return name;
}

export function activeScenario(home: ScenarioHome): string | undefined {
  if (!existsSync(home.active)) return undefined;
  return (JSON.parse(readFileSync(home.active, 'utf8')) as { name: string }).name;
}

const notInstalled = (home: ScenarioHome, name: string): MockError =>
  new MockError(
    'MOCK_ERR_SCENARIO_NOT_INSTALLED',
    `${name}: not installed in ${path.relative(process.cwd(), home.root) || home.root}; mock scenario list shows what is, mock scenario install ${name} installs it`,
  );
