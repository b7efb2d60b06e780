import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { parse } from 'yaml';
import { MockError } from '../../common/errors.js';
import { fetchScenario } from './fetch.js';
import { readLock, writeLock } from './lock.js';
import { checkManifest, MANIFEST_FILE, splitSpec, type ScenarioManifest } from './manifest.js';
import { registryOptions } from './npmrc.js';
import { scenarioDir, scenarioHome, type ScenarioHome } from './project.js';
import { validateScenario } from './validate.js';

export interface InstallOptions {
  cwd?: string;
  configPath?: string;
  /** Replace an installed scenario of the same name. */
  force?: boolean;
  skipValidation?: boolean;
  /** `sha256:<hex>` of the archive. */
  checksum?: string;
  /** Registry URL over .npmrc. */
  registry?: string;
  /** Hears each source as its fetch starts (the CLI's progress line on a terminal). */
  onFetch?: (source: string) => void;
}

export interface InstalledScenario {
  name: string;
  version: string;
  dir: string;
  requested: string;
  /** Installed as another scenario's dependency. */
  dependency: boolean;
}

interface Planned extends InstalledScenario {
  staged: string;
  resolved: string;
  integrity: string;
  manifest: ScenarioManifest;
}

/**
 * Installs a scenario and its dependencies into the project's .mock/scenarios/: everything is fetched
 * and checked in a staging folder first and moved into place only when all of it succeeded, so a
 * failure leaves the installed scenarios as they were. The lock file records each one's integrity.
 */
export async function installScenario(source: string, options: InstallOptions = {}): Promise<InstalledScenario[]> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const home = scenarioHome(cwd, options.configPath);
  mkdirSync(home.root, { recursive: true });
  const staging = mkdtempSync(path.join(home.root, '.staging-'));
  const npm = { ...registryOptions(home.project, options.registry), cache: path.join(staging, '.cache') };
  const lock = readLock(home);
  const plan = new Map<string, Planned>();
  try {
    let fetches = 0;
    const visit = async (spec: string, stack: string[], checksum?: string): Promise<void> => {
      const into = path.join(staging, String(fetches++));
      options.onFetch?.(spec);
      const fetched = await fetchScenario(spec, into, { npm, checksum, cwd });
      const manifest = readManifest(fetched.dir, spec, options.skipValidation === true);
      const { name, version } = manifest;
      const wanted = stack.length > 0 ? splitSpec(spec).name : name;
      if (name !== wanted) throw new MockError('MOCK_ERR_SCENARIO_INVALID', `${spec}: the package's scenario.yaml names ${name}; a scenario's package and scenario.yaml must have one name`);
      if (stack.includes(name)) throw new MockError('MOCK_ERR_SCENARIO_DEPENDENCY', `${[...stack, name].join(' → ')}: the dependencies form a cycle; remove one of them`);
      const isDependency = stack.length > 0;
      if (!isDependency && existsSync(scenarioDir(home, name)) && !options.force) {
        throw new MockError('MOCK_ERR_SCENARIO_EXISTS', `${name}: installed already (version ${lock.scenarios[name]?.version ?? 'unknown'}); pass --force to replace it`);
      }
      plan.set(name, {
        name,
        version,
        dir: scenarioDir(home, name),
        requested: spec,
        dependency: isDependency,
        staged: fetched.dir,
        resolved: fetched.resolved,
        integrity: fetched.integrity,
        manifest,
      });
      for (const dependency of manifest.dependencies ?? []) {
        const { name: wanted, range } = splitSpec(dependency);
        if ([...stack, name].includes(wanted)) throw new MockError('MOCK_ERR_SCENARIO_DEPENDENCY', `${[...stack, name, wanted].join(' → ')}: the dependencies form a cycle; remove one of them`);
        const planned = plan.get(wanted);
        if (planned) {
          if (!semver.satisfies(planned.version, range)) {
            throw new MockError('MOCK_ERR_SCENARIO_DEPENDENCY', `${name} needs ${wanted}@${range} but ${wanted}@${planned.version} is being installed; align the version ranges`);
          }
          continue;
        }
        const locked = lock.scenarios[wanted];
        if (locked && existsSync(scenarioDir(home, wanted)) && semver.satisfies(locked.version, range)) continue;
        await visit(`${wanted}@${range}`, [...stack, name]);
      }
    };
    // a folder or file is recorded by its absolute path, so mock scenario update finds it from anywhere
    await visit(/^(\.|~|\/)|\.(tgz|tar\.gz)$/.test(source) && existsSync(path.resolve(cwd, source)) ? path.resolve(cwd, source) : source, [], options.checksum);
    commit(home, [...plan.values()]);
    for (const planned of plan.values()) {
      lock.scenarios[planned.name] = {
        version: planned.version,
        requested: planned.requested,
        resolved: planned.resolved,
        integrity: planned.integrity,
        dependencies: planned.manifest.dependencies ?? [],
      };
    }
    writeLock(home, lock);
    return [...plan.values()].map(({ name, version, dir, requested, dependency }) => ({ name, version, dir, requested, dependency }));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function readManifest(dir: string, source: string, skipValidation: boolean): ScenarioManifest {
  if (!skipValidation) {
    const report = validateScenario(dir);
    if (report.errors.length > 0) {
      throw new MockError(
        'MOCK_ERR_SCENARIO_INVALID',
        `${source}: not a valid scenario: ${report.errors[0]}${report.errors.length > 1 ? ` (and ${report.errors.length - 1} more: mock scenario validate lists them)` : ''}`,
      );
    }
    return report.manifest as ScenarioManifest;
  }
  // even unvalidated, a scenario needs a name and a version to be installed under
  let manifest: unknown;
  try {
    manifest = parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
  } catch {
    throw new MockError('MOCK_ERR_SCENARIO_INVALID', `${source}: ${MANIFEST_FILE} is missing or not YAML; even with --skip-validation a scenario needs its name and version`);
  }
  const problem = checkManifest(manifest).find((line) => /: (name|version): /.test(line));
  if (problem) throw new MockError('MOCK_ERR_SCENARIO_INVALID', `${source}: ${problem}`);
  const read = manifest as ScenarioManifest;
  return { ...read, dependencies: Array.isArray(read.dependencies) ? read.dependencies : [] };
}

/** Moves every staged scenario into place; the ones it replaces come back if a move fails. */
function commit(home: ScenarioHome, planned: Planned[]): void {
  const moved: Array<{ dir: string; backup?: string }> = [];
  try {
    for (const entry of planned) {
      mkdirSync(path.dirname(entry.dir), { recursive: true });
      const backup = existsSync(entry.dir) ? `${entry.staged}.previous` : undefined;
      if (backup) renameSync(entry.dir, backup);
      moved.push({ dir: entry.dir, backup });
      renameSync(entry.staged, entry.dir);
    }
  } catch (error) {
    for (const { dir, backup } of moved.reverse()) {
      rmSync(dir, { recursive: true, force: true });
      if (backup) renameSync(backup, dir);
    }
    throw error;
  }
}
